import { confirmEmail } from '../shared/domain/account-links.js';
import { endpoint } from '../shared/http/handler.js';
import { jsonBody } from '../shared/http/request.js';
import { json } from '../shared/http/response.js';

/** POST /api/email-verification/confirm: follows a verification link (single use, 24 hours). */
export const handler = endpoint('api-email-verification-confirm', async ({ db, event }) => {
  const body = jsonBody(event);
  const { email } = await confirmEmail(db, body.token);
  return json(200, { email, verified: true });
});
