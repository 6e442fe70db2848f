import { currentUser } from '../shared/domain/lookups.js';
import { bearerEndpoint } from '../shared/http/bearer-endpoint.js';
import { json } from '../shared/http/response.js';

/** GET /user (Keyrock): the token's user, roles and organizations; optional PEP decision. */
export const handler = bearerEndpoint('user-info', async ({ db, bearer, query }) =>
  json(200, await currentUser(db, bearer, query), { 'cache-control': 'no-store' }),
);
