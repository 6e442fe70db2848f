import { newOrganization } from '../shared/domain/organizations.js';
import { endpoint } from '../shared/http/handler.js';
import { newOrganizationOf } from '../shared/http/keyrock.js';
import { json } from '../shared/http/response.js';
import { createdOrganizationBody } from '../shared/keyrock/organizations.js';

/** POST /v1/organizations (Keyrock) `{organization: {name, description?, website?}}`: the caller owns it. */
export const handler = endpoint('v1-organizations-create', async ({ db, event, caller }) => {
  const org = await newOrganization(db, caller.user.id, newOrganizationOf(event));
  return json(201, { organization: createdOrganizationBody(org) });
});
