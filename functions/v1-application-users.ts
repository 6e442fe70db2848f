import { assignments, roleById, v1Application } from '../shared/domain/application-admin.js';
import { endpoint } from '../shared/http/handler.js';
import { pathParam } from '../shared/http/request.js';
import { json } from '../shared/http/response.js';
import { userAssignmentEntry } from '../shared/keyrock/applications.js';

/** GET /v1/applications/{applicationId}/users (Keyrock): who holds which role, Provider or Purchaser. */
export const handler = endpoint('v1-application-users', async ({ db, event, caller }) => {
  const access = await v1Application(db, caller, pathParam(event, 'applicationId'), 'read');
  const list = await assignments(db, access, 'user');
  return json(200, {
    role_user_assignments: list.map((a) => userAssignmentEntry(a.grantee.id, roleById(access, a.roleId))),
  });
});
