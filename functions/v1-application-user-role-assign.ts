import { roleByKeyrockId, setUserRole, v1Application } from '../shared/domain/application-admin.js';
import { userIdParam } from '../shared/domain/user-admin.js';
import { endpoint } from '../shared/http/handler.js';
import { pathParam } from '../shared/http/request.js';
import { json } from '../shared/http/response.js';
import { userAssignedBody } from '../shared/keyrock/applications.js';

/**
 * PUT and POST /v1/applications/{applicationId}/users/{userId}/roles/{roleId} (Keyrock; POST is
 * its older twin): gives the user the role (idempotent, 201 as in Keyrock).
 */
export const handler = endpoint('v1-application-user-role-assign', async ({ db, event, caller }) => {
  const access = await v1Application(db, caller, pathParam(event, 'applicationId'), 'read');
  const userId = await userIdParam(db, pathParam(event, 'userId'));
  const role = roleByKeyrockId(access, pathParam(event, 'roleId'));
  await setUserRole(db, access, userId, role, true);
  return json(201, userAssignedBody(userId, role, access.app.clientId));
});
