import { LINK_SENT, requestLink } from '../shared/domain/account-links.js';
import { endpoint } from '../shared/http/handler.js';
import { jsonBody } from '../shared/http/request.js';
import { json } from '../shared/http/response.js';
import { mailer } from '../shared/mail/index.js';

/**
 * POST /api/password-reset ("Forgot your password?"): emails a reset link valid for an hour. The
 * answer is the same whether or not an account has the address (202); rate-limited (429).
 */
export const handler = endpoint('api-password-reset-send', async ({ db, event }) => {
  const body = jsonBody(event);
  await requestLink(db, mailer(), 'reset', body.email, event.requestContext.http.sourceIp);
  return json(202, { message: LINK_SENT });
});
