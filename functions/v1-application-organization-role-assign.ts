import {
  roleByKeyrockId,
  setOrganizationRoleHolder,
  v1Application,
} from '../shared/domain/application-admin.js';
import { organizationIdParam } from '../shared/domain/organizations.js';
import { endpoint } from '../shared/http/handler.js';
import { pathParam } from '../shared/http/request.js';
import { json } from '../shared/http/response.js';
import { orgAssignedBody, organizationRoleParam } from '../shared/keyrock/applications.js';

/**
 * PUT and POST /v1/applications/{applicationId}/organizations/{organizationId}/roles/{roleId}/organization_roles/{organizationRoleId}
 * (Keyrock; POST is its older twin): gives the role to the organization's members or to its owners (201 as in Keyrock).
 */
export const handler = endpoint('v1-application-organization-role-assign', async ({ db, event, caller }) => {
  const access = await v1Application(db, caller, pathParam(event, 'applicationId'), 'read');
  const orgId = await organizationIdParam(db, pathParam(event, 'organizationId'));
  const role = roleByKeyrockId(access, pathParam(event, 'roleId'));
  const holder = organizationRoleParam(pathParam(event, 'organizationRoleId'));
  await setOrganizationRoleHolder(db, access, orgId, role, holder, true);
  return json(201, orgAssignedBody(orgId, role, access.app.clientId, holder));
});
