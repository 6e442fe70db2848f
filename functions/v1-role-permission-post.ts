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
 * POST /v1/applications/{applicationId}/roles/{roleId}/permissions/{permissionId} (Keyrock):
 * switches the permission on for the role (Keyrock keeps POST for older clients).
 */
export const handler = endpoint('v1-role-permission-post', async ({ db, event, caller }) => {
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
