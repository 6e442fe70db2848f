import { sessionView } from '../shared/domain/portal-views.js';
import { signIn } from '../shared/domain/sessions.js';
import { text } from '../shared/domain/validate.js';
import { invalid } from '../shared/errors.js';
import { endpoint } from '../shared/http/handler.js';
import { jsonBody } from '../shared/http/request.js';
import { json } from '../shared/http/response.js';
import { sessionCookie } from '../shared/http/session.js';

/**
 * POST /api/session: sign in, always with a NEW session id. Shares the brute-force guard with the
 * password grant (429). Requiring application/json keeps cross-site HTML forms from signing a
 * victim in (login CSRF).
 */
export const handler = endpoint('api-session-create', async ({ db, event, session }) => {
  const body = jsonBody(event);
  const email = text(body.email, 'email', { max: 254 });
  if (typeof body.password !== 'string' || body.password === '') {
    throw invalid('password is required.', 'password');
  }
  const { id, session: started } = await signIn(db, email, body.password, await session);
  return { ...json(200, await sessionView(db, started)), cookies: [sessionCookie(id)] };
});
