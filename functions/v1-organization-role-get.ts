import { apiActor, memberOf, organizationIdParam } from '../shared/domain/organizations.js';
import { userIdParam } from '../shared/domain/user-admin.js';
import { notFound } from '../shared/errors.js';
import { endpoint } from '../shared/http/handler.js';
import { pathParam } from '../shared/http/request.js';
import { json } from '../shared/http/response.js';
import { assignmentBody, organizationRole } from '../shared/keyrock/organizations.js';

/**
 * GET /v1/organizations/{organizationId}/users/{userId}/organization_roles/{role}: whether the
 * user holds that role (200 with the membership) or not (404). Gatehouse's addition: Keyrock
 * routes only PUT, POST and DELETE here (docs/api.md).
 */
export const handler = endpoint('v1-organization-role-get', async ({ db, event, caller }) => {
  const orgId = await organizationIdParam(db, pathParam(event, 'organizationId'));
  const userId = await userIdParam(db, pathParam(event, 'userId'));
  const role = organizationRole(pathParam(event, 'role'));
  const membership = await memberOf(db, apiActor(caller), orgId, userId);
  if (membership.role !== role) throw notFound('Assignment not found');
  return json(200, { organization_user: assignmentBody(membership) });
});
