import { currentUser } from '../shared/domain/lookups.js';
import { routeHandler } from '../shared/http/cors.js';
import { queryParams } from '../shared/http/request.js';
import { json } from '../shared/http/response.js';
import { requireAccessToken } from '../shared/oauth/bearer.js';
import { db } from '../shared/store/db.js';

/** GET /user (Keyrock): the token's user, roles and organizations; optional PEP decision. */
export const handler = routeHandler('GET /user', async (event) => {
  const query = queryParams(event);
  const token = await requireAccessToken(db(), event, query);
  return json(200, await currentUser(db(), token, query), { 'cache-control': 'no-store' });
});
