import { currentUser } from '../shared/domain/lookups.js';
import { bearerEndpoint } from '../shared/http/bearer-endpoint.js';
import { json } from '../shared/http/response.js';

/**
 * GET /user (Keyrock; FIWARE's PEP proxy on every request it guards): the token's user, roles and
 * organizations in the application asked about, and optionally a decision; Keyrock's 401 bodies
 * for an unknown or untrusting `app_id`.
 */
export const handler = bearerEndpoint('user-info', async ({ db, bearer, query }) => {
  const answer = await currentUser(db, bearer, query);
  return json(answer.status, answer.body, { 'cache-control': 'no-store' });
});
