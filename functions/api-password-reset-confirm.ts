import { config } from '../shared/config.js';
import { resetPassword } from '../shared/domain/account-links.js';
import { endpoint } from '../shared/http/handler.js';
import { jsonBody } from '../shared/http/request.js';
import { json } from '../shared/http/response.js';

/**
 * POST /api/password-reset/confirm: follows a reset link (single use, 1 hour) with a new
 * password; ends the account's sessions and revokes its refresh tokens.
 */
export const handler = endpoint('api-password-reset-confirm', async ({ db, event }) => {
  const body = jsonBody(event);
  const { email } = await resetPassword(db, body.token, body.password, config().bcryptCost);
  return json(200, { email, reset: true });
});
