import { removeTotp, twoFactorOf } from '../shared/domain/two-factor.js';
import { endpoint } from '../shared/http/handler.js';
import { jsonBody } from '../shared/http/request.js';
import { json } from '../shared/http/response.js';

/** DELETE /api/account/two-factor/totp `{password}`: removes the authenticator app. */
export const handler = endpoint('api-totp-delete', async ({ db, event, session }) => {
  const body = jsonBody(event);
  await removeTotp(db, session.userId, body.password);
  return json(200, await twoFactorOf(db, session.userId));
});
