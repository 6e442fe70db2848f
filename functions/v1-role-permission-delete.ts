import { assignPermission, roleByKeyrockId, v1Application } from '../shared/domain/application-admin.js';
import { endpoint } from '../shared/http/handler.js';
import { pathParam } from '../shared/http/request.js';
import { permissionIdParam } from '../shared/keyrock/applications.js';

/** DELETE /v1/applications/{applicationId}/roles/{roleId}/permissions/{permissionId} (Keyrock). */
export const handler = endpoint('v1-role-permission-delete', async ({ db, event, caller }) => {
  const access = await v1Application(db, caller, pathParam(event, 'applicationId'), 'manage');
  const role = roleByKeyrockId(access, pathParam(event, 'roleId'));
  await assignPermission(db, access, role, permissionIdParam(pathParam(event, 'permissionId')), false);
  return { statusCode: 204, headers: {}, body: '' };
});
