import { LINK_SENT, requestLink } from '../shared/domain/account-links.js';
import { endpoint } from '../shared/http/handler.js';
import { jsonBody } from '../shared/http/request.js';
import { json } from '../shared/http/response.js';
import { mailer } from '../shared/mail/index.js';

/**
 * POST /api/email-verification: emails a new verification link to an unverified account. The
 * answer is the same whether or not an account has the address (202); rate-limited (429).
 */
export const handler = endpoint('api-email-verification-send', async ({ db, event }) => {
  const body = jsonBody(event);
  await requestLink(db, mailer(), 'verify', body.email, event.requestContext.http.sourceIp);
  return json(202, { message: LINK_SENT });
});
