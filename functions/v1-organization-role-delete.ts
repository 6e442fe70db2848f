import { apiActor, dropMember, organizationIdParam } from '../shared/domain/organizations.js';
import { userIdParam } from '../shared/domain/user-admin.js';
import { endpoint } from '../shared/http/handler.js';
import { pathParam } from '../shared/http/request.js';
import { organizationRole } from '../shared/keyrock/organizations.js';

/** DELETE /v1/organizations/{organizationId}/users/{userId}/organization_roles/{role} (Keyrock): owners and administrators. */
export const handler = endpoint('v1-organization-role-delete', async ({ db, event, caller }) => {
  const orgId = await organizationIdParam(db, pathParam(event, 'organizationId'));
  const userId = await userIdParam(db, pathParam(event, 'userId'));
  const role = organizationRole(pathParam(event, 'role'));
  await dropMember(db, apiActor(caller), orgId, userId, role);
  return { statusCode: 204, headers: {}, body: '' };
});
