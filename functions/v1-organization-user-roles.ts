import { apiActor, memberOf, organizationIdParam } from '../shared/domain/organizations.js';
import { userIdParam } from '../shared/domain/user-admin.js';
import { endpoint } from '../shared/http/handler.js';
import { pathParam } from '../shared/http/request.js';
import { json } from '../shared/http/response.js';
import { assignmentBody } from '../shared/keyrock/organizations.js';

/** GET /v1/organizations/{organizationId}/users/{userId}/organization_roles (Keyrock): one member's role. */
export const handler = endpoint('v1-organization-user-roles', async ({ db, event, caller }) => {
  const orgId = await organizationIdParam(db, pathParam(event, 'organizationId'));
  const userId = await userIdParam(db, pathParam(event, 'userId'));
  return json(200, {
    organization_user: assignmentBody(await memberOf(db, apiActor(caller), orgId, userId)),
  });
});
