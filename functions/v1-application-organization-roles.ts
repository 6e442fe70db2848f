import { roleById, rolesOfOrganization, v1Application } from '../shared/domain/application-admin.js';
import { organizationIdParam } from '../shared/domain/organizations.js';
import { endpoint } from '../shared/http/handler.js';
import { pathParam } from '../shared/http/request.js';
import { json } from '../shared/http/response.js';
import { orgAssignmentEntries } from '../shared/keyrock/applications.js';

/** GET /v1/applications/{applicationId}/organizations/{organizationId}/roles (Keyrock). */
export const handler = endpoint('v1-application-organization-roles', async ({ db, event, caller }) => {
  const access = await v1Application(db, caller, pathParam(event, 'applicationId'), 'read');
  const orgId = await organizationIdParam(db, pathParam(event, 'organizationId'));
  const grants = await rolesOfOrganization(db, access, orgId);
  return json(200, {
    role_organization_assignments: grants.flatMap((g) =>
      orgAssignmentEntries(orgId, roleById(access, g.roleId), g.heldBy, false),
    ),
  });
});
