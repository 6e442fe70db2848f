import type { Session } from '../store/sessions.js';
import { httpHandler } from './handler.js';
import { csrfHeader, requireCsrf, requireSession } from './session.js';
import type { HttpEvent, HttpHandler, HttpResult } from './types.js';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** Portal API answers are per-user: never stored by a browser or a shared cache. */
function noStore(result: HttpResult): HttpResult {
  return { ...result, headers: { 'cache-control': 'no-store', ...result.headers } };
}

/**
 * The portal API's wrapper for routes that need a signed-in user: no session → 401; a
 * state-changing method without the session's CSRF token in `X-CSRF-Token` → 403 (the cookie
 * alone proves nothing, a cross-site page can make the browser send it).
 */
export function portalHandler(
  route: string,
  fn: (event: HttpEvent, session: Session) => Promise<HttpResult>,
): HttpHandler {
  return httpHandler(route, async (event) => {
    const session = await requireSession(event);
    if (!SAFE_METHODS.has(event.requestContext.http.method)) requireCsrf(session, csrfHeader(event));
    return noStore(await fn(event, session));
  });
}

/** The portal API's wrapper for the routes used before signing in (sign-up, sign-in, session probe). */
export function publicPortalHandler(
  route: string,
  fn: (event: HttpEvent) => Promise<HttpResult>,
): HttpHandler {
  return httpHandler(route, async (event) => noStore(await fn(event)));
}
