import { twoFactorOf } from '../shared/domain/two-factor.js';
import { endpoint } from '../shared/http/handler.js';
import { json } from '../shared/http/response.js';

/** GET /api/account/two-factor: the signed-in person's app, recovery codes left and passkeys. */
export const handler = endpoint('api-two-factor-get', async ({ db, session }) =>
  json(200, await twoFactorOf(db, session.userId)),
);
