import { assignments, roleById, v1Application } from '../shared/domain/application-admin.js';
import { endpoint } from '../shared/http/handler.js';
import { pathParam } from '../shared/http/request.js';
import { json } from '../shared/http/response.js';
import { orgAssignmentEntries } from '../shared/keyrock/applications.js';

/** GET /v1/applications/{applicationId}/organizations (Keyrock): which organization holds which role, for whom in it. */
export const handler = endpoint('v1-application-organizations', async ({ db, event, caller }) => {
  const access = await v1Application(db, caller, pathParam(event, 'applicationId'), 'read');
  const list = await assignments(db, access, 'org');
  return json(200, {
    role_organization_assignments: list.flatMap((a) =>
      orgAssignmentEntries(a.grantee.id, roleById(access, a.roleId), a.heldBy, true),
    ),
  });
});
