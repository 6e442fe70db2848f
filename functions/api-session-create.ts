import { sessionView } from '../shared/domain/portal-views.js';
import { passwordSignIn } from '../shared/domain/sign-in.js';
import { relyingParty } from '../shared/domain/two-factor.js';
import { text } from '../shared/domain/validate.js';
import { invalid } from '../shared/errors.js';
import { endpoint } from '../shared/http/handler.js';
import { jsonBody, requestOrigin } from '../shared/http/request.js';
import { json } from '../shared/http/response.js';
import { sessionCookie } from '../shared/http/session.js';

/**
 * POST /api/session: sign in, always with a NEW session id. Shares the brute-force guard with the
 * password grant (429). Requiring application/json keeps cross-site HTML forms from signing a
 * victim in (login CSRF). An account with two-factor on gets no session yet: `secondFactor`
 * carries the ticket for POST /api/session/verify.
 */
export const handler = endpoint('api-session-create', async ({ db, event, session }) => {
  const body = jsonBody(event);
  const email = text(body.email, 'email', { max: 254 });
  if (typeof body.password !== 'string' || body.password === '') {
    throw invalid('password is required.', 'password');
  }
  const rp = relyingParty(requestOrigin(event));
  const outcome = await passwordSignIn(db, email, body.password, await session, rp.id);
  if (outcome.kind === 'second-factor') {
    const { ticket, methods, passkey } = outcome;
    return json(200, { user: null, secondFactor: { ticket, methods, ...(passkey ? { passkey } : {}) } });
  }
  return { ...json(200, await sessionView(db, outcome.session)), cookies: [sessionCookie(outcome.id)] };
});
