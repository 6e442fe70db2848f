import { accountWithSessions } from '../shared/domain/account-settings.js';
import { endpoint } from '../shared/http/handler.js';
import { json } from '../shared/http/response.js';

/** GET /api/account: the signed-in account's settings and its live portal sessions. */
export const handler = endpoint('api-account-get', async ({ db, session }) =>
  json(200, await accountWithSessions(db, session)),
);
