import { signOut } from '../shared/domain/sessions.js';
import { endpoint } from '../shared/http/handler.js';
import { json } from '../shared/http/response.js';
import { clearedSessionCookie } from '../shared/http/session.js';

/** DELETE /api/session: sign out; the session is deleted on the server, not only the cookie. */
export const handler = endpoint('api-session-delete', async ({ db, session }) => {
  await signOut(db, session);
  return { ...json(200, { user: null }), cookies: [clearedSessionCookie()] };
});
