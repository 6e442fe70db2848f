import { confirmEmailChange } from '../shared/domain/account-links.js';
import { endpoint } from '../shared/http/handler.js';
import { jsonBody } from '../shared/http/request.js';
import { json } from '../shared/http/response.js';

/** POST /api/account/email/confirm `{token}`: follows an address-change link (single use, 24 hours). */
export const handler = endpoint('api-account-email-confirm', async ({ db, event }) => {
  const { email } = await confirmEmailChange(db, jsonBody(event).token);
  return json(200, { email, changed: true });
});
