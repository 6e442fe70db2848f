import {
  roleByKeyrockId,
  setOrganizationRoleHolder,
  v1Application,
} from '../shared/domain/application-admin.js';
import { organizationIdParam } from '../shared/domain/organizations.js';
import { endpoint } from '../shared/http/handler.js';
import { pathParam } from '../shared/http/request.js';
import { organizationRoleParam } from '../shared/keyrock/applications.js';

/**
 * DELETE /v1/applications/{applicationId}/organizations/{organizationId}/roles/{roleId}/organization_roles/{organizationRoleId}
 * (Keyrock): takes the role from the organization's members or from its owners.
 */
export const handler = endpoint('v1-application-organization-role-delete', async ({ db, event, caller }) => {
  const access = await v1Application(db, caller, pathParam(event, 'applicationId'), 'read');
  const orgId = await organizationIdParam(db, pathParam(event, 'organizationId'));
  const role = roleByKeyrockId(access, pathParam(event, 'roleId'));
  const holder = organizationRoleParam(pathParam(event, 'organizationRoleId'));
  await setOrganizationRoleHolder(db, access, orgId, role, holder, false);
  return { statusCode: 204, headers: {}, body: '' };
});
