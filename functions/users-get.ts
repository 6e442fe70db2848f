import { userById } from '../shared/domain/lookups.js';
import { bearerEndpoint } from '../shared/http/bearer-endpoint.js';
import { pathParam } from '../shared/http/request.js';
import { json } from '../shared/http/response.js';

/** GET /users/{id} (Keyrock): a user as seen from the token's application. */
export const handler = bearerEndpoint('users-get', async ({ db, bearer, event }) =>
  json(200, await userById(db, bearer, pathParam(event, 'id')), { 'cache-control': 'no-store' }),
);
