import { v1Application, visibleRoles } from '../shared/domain/application-admin.js';
import { endpoint } from '../shared/http/handler.js';
import { pathParam } from '../shared/http/request.js';
import { json } from '../shared/http/response.js';
import { roleEntry } from '../shared/keyrock/applications.js';

/** GET /v1/applications/{applicationId}/roles (Keyrock): Provider, Purchaser or an administrator. */
export const handler = endpoint('v1-roles-list', async ({ db, event, caller }) => {
  const access = await v1Application(db, caller, pathParam(event, 'applicationId'), 'read');
  return json(200, { roles: visibleRoles(access).map(roleEntry) });
});
