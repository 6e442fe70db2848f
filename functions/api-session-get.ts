import { sessionView } from '../shared/domain/portal-views.js';
import { publicPortalHandler } from '../shared/http/portal.js';
import { json } from '../shared/http/response.js';
import { currentSession } from '../shared/http/session.js';
import { db } from '../shared/store/db.js';

/**
 * GET /api/session: who is signed in, whom they act for, and the CSRF token again (the portal
 * keeps it only in memory, so a reload asks here). Signed out is a normal answer: `{user: null}`.
 */
export const handler = publicPortalHandler('GET /api/session', async (event) => {
  const session = await currentSession(event);
  return json(200, session ? await sessionView(db(), session) : { user: null });
});
