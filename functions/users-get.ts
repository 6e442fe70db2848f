import { userById } from '../shared/domain/lookups.js';
import { routeHandler } from '../shared/http/cors.js';
import { pathParam, queryParams } from '../shared/http/request.js';
import { json } from '../shared/http/response.js';
import { requireAccessToken } from '../shared/oauth/bearer.js';
import { db } from '../shared/store/db.js';

/** GET /users/{id} (Keyrock): a user as seen from the token's application. */
export const handler = routeHandler('GET /users/{id}', async (event) => {
  const query = queryParams(event);
  const token = await requireAccessToken(db(), event, query);
  return json(200, await userById(db(), token, pathParam(event, 'id')), { 'cache-control': 'no-store' });
});
