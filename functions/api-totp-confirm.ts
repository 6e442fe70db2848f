import { confirmTotp } from '../shared/domain/totp.js';
import { twoFactorOf } from '../shared/domain/two-factor.js';
import { endpoint } from '../shared/http/handler.js';
import { jsonBody } from '../shared/http/request.js';
import { json } from '../shared/http/response.js';

/**
 * POST /api/account/two-factor/totp/confirm `{code}`: a code from the app turns two-factor on;
 * the first second factor also answers ten recovery codes, shown once.
 */
export const handler = endpoint('api-totp-confirm', async ({ db, event, session }) => {
  const body = jsonBody(event);
  const { recoveryCodes } = await confirmTotp(db, session.userId, body.code);
  const twoFactor = await twoFactorOf(db, session.userId);
  return json(200, { twoFactor, recoveryCodes });
});
