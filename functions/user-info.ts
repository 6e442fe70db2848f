import { currentUser } from '../shared/domain/lookups.js';
import { endpoint } from '../shared/http/handler.js';
import { json } from '../shared/http/response.js';

/** GET /user (Keyrock): the token's user, roles and organizations; optional PEP decision. */
export const handler = endpoint('user-info', async ({ db, query, token }) =>
  json(200, await currentUser(db, await token, query), { 'cache-control': 'no-store' }),
);
