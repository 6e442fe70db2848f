import { refuseBuiltIn, roleByKeyrockId, v1Application } from '../shared/domain/application-admin.js';
import { removeRole } from '../shared/domain/catalogue.js';
import { endpoint } from '../shared/http/handler.js';
import { pathParam } from '../shared/http/request.js';

/** DELETE /v1/applications/{applicationId}/roles/{roleId} (Keyrock); built-in roles: 403. */
export const handler = endpoint('v1-role-delete', async ({ db, event, caller }) => {
  const access = await v1Application(db, caller, pathParam(event, 'applicationId'), 'manage');
  const role = roleByKeyrockId(access, pathParam(event, 'roleId'));
  refuseBuiltIn(role.builtIn !== undefined);
  await removeRole(db, access.app.id, role.id);
  return { statusCode: 204, headers: {}, body: '' };
});
