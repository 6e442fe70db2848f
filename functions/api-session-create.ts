import { config } from '../shared/config.js';
import { checkPassword } from '../shared/domain/accounts.js';
import { sessionView } from '../shared/domain/portal-views.js';
import { text } from '../shared/domain/validate.js';
import { publicPortalHandler } from '../shared/http/portal.js';
import { jsonBody } from '../shared/http/request.js';
import { json } from '../shared/http/response.js';
import { currentSession, sessionCookie } from '../shared/http/session.js';
import { db } from '../shared/store/db.js';
import { createSession, deleteSession } from '../shared/store/sessions.js';

/**
 * POST /api/session: sign in. Always a NEW session id (no session fixation); a session the
 * browser already had is deleted. Shares the brute-force guard with the password grant (429).
 * Requiring application/json keeps cross-site HTML forms from signing a victim in (login CSRF).
 */
export const handler = publicPortalHandler('POST /api/session', async (event) => {
  const body = jsonBody(event);
  const email = text(body.email, 'email', { max: 254 });
  if (typeof body.password !== 'string' || body.password === '') {
    return json(400, {
      error: 'invalid_request',
      error_description: 'password is required.',
      field: 'password',
    });
  }
  const userId = await checkPassword(db(), email, body.password);
  const previous = await currentSession(event);
  if (previous) await deleteSession(db(), previous);
  const { id, session } = await createSession(db(), userId, config().sessionIdleTtl);
  return { ...json(200, await sessionView(db(), session)), cookies: [sessionCookie(id)] };
});
