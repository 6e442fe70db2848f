import { apiActor, organizationIdParam, readOrganization } from '../shared/domain/organizations.js';
import { endpoint } from '../shared/http/handler.js';
import { pathParam } from '../shared/http/request.js';
import { json } from '../shared/http/response.js';
import { organizationBody } from '../shared/keyrock/organizations.js';

/** GET /v1/organizations/{organizationId} (Keyrock): members and administrators. */
export const handler = endpoint('v1-organization-get', async ({ db, event, caller }) => {
  const orgId = await organizationIdParam(db, pathParam(event, 'organizationId'));
  return json(200, { organization: organizationBody(await readOrganization(db, apiActor(caller), orgId)) });
});
