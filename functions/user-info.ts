import { currentUser } from '../shared/domain/lookups.js';
import { endpoint } from '../shared/http/handler.js';
import { json } from '../shared/http/response.js';

/** GET /user (Keyrock): the token's user, roles and organizations; optional PEP decision. */
export const handler = endpoint('user-info', async ({ db, bearer, query }) =>
  json(200, await currentUser(db, bearer, query), { 'cache-control': 'no-store' }),
);
