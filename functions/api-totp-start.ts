import { startTotp } from '../shared/domain/totp-enrol.js';
import { endpoint } from '../shared/http/handler.js';
import { jsonBody } from '../shared/http/request.js';
import { json } from '../shared/http/response.js';

/**
 * POST /api/account/two-factor/totp `{password}`: starts adding an authenticator app; answers
 * the secret, its otpauth URI and a QR code, once. Confirmed by …/totp/confirm.
 */
export const handler = endpoint('api-totp-start', async ({ db, event, session }) => {
  const body = jsonBody(event);
  return json(201, await startTotp(db, session.userId, body.password));
});
