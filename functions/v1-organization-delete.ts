import { apiActor, organizationIdParam, removeOrganization } from '../shared/domain/organizations.js';
import { endpoint } from '../shared/http/handler.js';
import { pathParam } from '../shared/http/request.js';

/** DELETE /v1/organizations/{organizationId} (Keyrock): owners and administrators; members and roles go too. */
export const handler = endpoint('v1-organization-delete', async ({ db, event, caller }) => {
  const orgId = await organizationIdParam(db, pathParam(event, 'organizationId'));
  await removeOrganization(db, apiActor(caller), orgId);
  return { statusCode: 204, headers: {}, body: '' };
});
