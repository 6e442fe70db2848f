import { roleByKeyrockId, setUserRole, v1Application } from '../shared/domain/application-admin.js';
import { userIdParam } from '../shared/domain/user-admin.js';
import { endpoint } from '../shared/http/handler.js';
import { pathParam } from '../shared/http/request.js';

/** DELETE /v1/applications/{applicationId}/users/{userId}/roles/{roleId} (Keyrock): takes the role from the user. */
export const handler = endpoint('v1-application-user-role-delete', async ({ db, event, caller }) => {
  const access = await v1Application(db, caller, pathParam(event, 'applicationId'), 'read');
  const userId = await userIdParam(db, pathParam(event, 'userId'));
  const role = roleByKeyrockId(access, pathParam(event, 'roleId'));
  await setUserRole(db, access, userId, role, false);
  return { statusCode: 204, headers: {}, body: '' };
});
