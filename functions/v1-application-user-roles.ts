import { roleById, rolesOfUser, v1Application } from '../shared/domain/application-admin.js';
import { userIdParam } from '../shared/domain/user-admin.js';
import { endpoint } from '../shared/http/handler.js';
import { pathParam } from '../shared/http/request.js';
import { json } from '../shared/http/response.js';
import { userAssignmentEntry } from '../shared/keyrock/applications.js';

/** GET /v1/applications/{applicationId}/users/{userId}/roles (Keyrock): the roles one user holds. */
export const handler = endpoint('v1-application-user-roles', async ({ db, event, caller }) => {
  const access = await v1Application(db, caller, pathParam(event, 'applicationId'), 'read');
  const userId = await userIdParam(db, pathParam(event, 'userId'));
  const roles = await rolesOfUser(db, access, userId);
  return json(200, {
    role_user_assignments: roles.map((r) => userAssignmentEntry(userId, roleById(access, r))),
  });
});
