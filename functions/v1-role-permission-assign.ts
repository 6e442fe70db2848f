import { assignPermission, roleByKeyrockId, v1Application } from '../shared/domain/application-admin.js';
import { endpoint } from '../shared/http/handler.js';
import { pathParam } from '../shared/http/request.js';
import { json } from '../shared/http/response.js';
import {
  assignmentBody,
  permissionIdParam,
  permissionKeyrockId,
  roleKeyrockId,
} from '../shared/keyrock/applications.js';

/**
 * PUT and POST /v1/applications/{applicationId}/roles/{roleId}/permissions/{permissionId}
 * (Keyrock; POST is its older twin): switches the permission on for the role (idempotent, 201 as
 * in Keyrock).
 */
export const handler = endpoint('v1-role-permission-assign', async ({ db, event, caller }) => {
  const access = await v1Application(db, caller, pathParam(event, 'applicationId'), 'manage');
  const role = roleByKeyrockId(access, pathParam(event, 'roleId'));
  const id = await assignPermission(
    db,
    access,
    role,
    permissionIdParam(pathParam(event, 'permissionId')),
    true,
  );
  return json(201, assignmentBody(roleKeyrockId(role), permissionKeyrockId({ id })));
});
