import { requestEmailChange } from '../shared/domain/account-links.js';
import { endpoint } from '../shared/http/handler.js';
import { jsonBody } from '../shared/http/request.js';
import { json } from '../shared/http/response.js';
import { mailer } from '../shared/mail/index.js';

/**
 * POST /api/account/email `{email, password}`: mails a confirmation link to the new address; the
 * account keeps its current address until the link is followed (202).
 */
export const handler = endpoint('api-account-email', async ({ db, event, session }) => {
  const { email } = await requestEmailChange(db, mailer(), session.userId, jsonBody(event));
  return json(202, { pendingEmail: email });
});
