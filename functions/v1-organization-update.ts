import { apiActor, changeOrganization, organizationIdParam } from '../shared/domain/organizations.js';
import { endpoint } from '../shared/http/handler.js';
import { organizationChangesOf } from '../shared/http/keyrock.js';
import { pathParam } from '../shared/http/request.js';
import { json } from '../shared/http/response.js';
import { updatedOrganizationBody } from '../shared/keyrock/organizations.js';

/** PATCH /v1/organizations/{organizationId} (Keyrock): owners and administrators. */
export const handler = endpoint('v1-organization-update', async ({ db, event, caller }) => {
  const orgId = await organizationIdParam(db, pathParam(event, 'organizationId'));
  const changes = organizationChangesOf(event);
  const { org, changed } = await changeOrganization(db, apiActor(caller), orgId, changes);
  return json(200, updatedOrganizationBody(org, changed));
});
