import { apiActor, assignMember, organizationIdParam } from '../shared/domain/organizations.js';
import { userIdParam } from '../shared/domain/user-admin.js';
import { endpoint } from '../shared/http/handler.js';
import { requireJsonType } from '../shared/http/keyrock.js';
import { pathParam } from '../shared/http/request.js';
import { json } from '../shared/http/response.js';
import { assignedBody, organizationRole } from '../shared/keyrock/organizations.js';

/**
 * PUT and POST /v1/organizations/{organizationId}/users/{userId}/organization_roles/{role}
 * (Keyrock; POST is its older twin):
 * owners and administrators add the user with the role or change the member's role.
 */
export const handler = endpoint('v1-organization-role-assign', async ({ db, event, caller }) => {
  requireJsonType(event);
  const orgId = await organizationIdParam(db, pathParam(event, 'organizationId'));
  const userId = await userIdParam(db, pathParam(event, 'userId'));
  const role = organizationRole(pathParam(event, 'role'));
  return json(201, assignedBody(await assignMember(db, apiActor(caller), orgId, userId, role)));
});
