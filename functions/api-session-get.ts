import { sessionView } from '../shared/domain/portal-views.js';
import { endpoint } from '../shared/http/handler.js';
import { json } from '../shared/http/response.js';

/**
 * GET /api/session: who is signed in, whom they act for, and the CSRF token again (the portal
 * keeps it only in memory, so a reload asks here). Signed out is a normal answer: `{user: null}`.
 */
export const handler = endpoint('api-session-get', async ({ db, session }) => {
  const current = await session;
  return json(200, current ? await sessionView(db, current) : { user: null });
});
