import { organizationsOf } from '../shared/domain/organizations.js';
import { notFound } from '../shared/errors.js';
import { endpoint } from '../shared/http/handler.js';
import { json } from '../shared/http/response.js';
import { organizationListBody } from '../shared/keyrock/organizations.js';

/** GET /v1/organizations (Keyrock): the caller's organizations with its role; 404 when none, as Keyrock. */
export const handler = endpoint('v1-organizations-list', async ({ db, caller }) => {
  const own = await organizationsOf(db, caller.user.id);
  if (own.length === 0) throw notFound('Organizations not found');
  return json(200, organizationListBody(own));
});
