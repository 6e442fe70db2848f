import { roleByKeyrockId, v1Application } from '../shared/domain/application-admin.js';
import { endpoint } from '../shared/http/handler.js';
import { pathParam } from '../shared/http/request.js';
import { json } from '../shared/http/response.js';
import { roleBody } from '../shared/keyrock/applications.js';

/** GET /v1/applications/{applicationId}/roles/{roleId} (Keyrock): Provider or an administrator. */
export const handler = endpoint('v1-role-get', async ({ db, event, caller }) => {
  const access = await v1Application(db, caller, pathParam(event, 'applicationId'), 'manage');
  const role = roleByKeyrockId(access, pathParam(event, 'roleId'));
  return json(200, { role: roleBody(role, access.app.clientId) });
});
