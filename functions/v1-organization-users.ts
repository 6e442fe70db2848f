import { apiActor, organizationIdParam, organizationMembers } from '../shared/domain/organizations.js';
import { endpoint } from '../shared/http/handler.js';
import { pathParam } from '../shared/http/request.js';
import { json } from '../shared/http/response.js';
import { membersBody } from '../shared/keyrock/organizations.js';

/** GET /v1/organizations/{organizationId}/users (Keyrock): every member and role, for members and administrators. */
export const handler = endpoint('v1-organization-users', async ({ db, event, caller }) => {
  const orgId = await organizationIdParam(db, pathParam(event, 'organizationId'));
  const { members } = await organizationMembers(db, apiActor(caller), orgId);
  return json(200, membersBody(members));
});
