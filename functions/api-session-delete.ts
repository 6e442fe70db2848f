import { portalHandler } from '../shared/http/portal.js';
import { json } from '../shared/http/response.js';
import { clearedSessionCookie } from '../shared/http/session.js';
import { db } from '../shared/store/db.js';
import { deleteSession } from '../shared/store/sessions.js';

/** DELETE /api/session: sign out; the session is deleted on the server, not only the cookie. */
export const handler = portalHandler('DELETE /api/session', async (_event, session) => {
  await deleteSession(db(), session);
  return { ...json(200, { user: null }), cookies: [clearedSessionCookie()] };
});
