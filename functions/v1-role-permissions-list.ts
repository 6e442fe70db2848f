import { permissionsOfRole, roleByKeyrockId, v1Application } from '../shared/domain/application-admin.js';
import { notFound } from '../shared/errors.js';
import { endpoint } from '../shared/http/handler.js';
import { pathParam } from '../shared/http/request.js';
import { json } from '../shared/http/response.js';
import {
  BUILT_IN_PERMISSIONS,
  internalPermissionBody,
  permissionBody,
} from '../shared/keyrock/applications.js';

/** GET /v1/applications/{applicationId}/roles/{roleId}/permissions (Keyrock): the role's permissions. */
export const handler = endpoint('v1-role-permissions-list', async ({ db, event, caller }) => {
  const access = await v1Application(db, caller, pathParam(event, 'applicationId'), 'manage');
  const role = roleByKeyrockId(access, pathParam(event, 'roleId'));
  const list = role.builtIn
    ? BUILT_IN_PERMISSIONS[role.builtIn].map(internalPermissionBody)
    : (await permissionsOfRole(db, access, role)).map((p) => permissionBody(p, access.app.clientId));
  if (list.length === 0) throw notFound('Assignments not found');
  return json(200, { role_permission_assignments: list });
});
