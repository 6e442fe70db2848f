import type middy from '@middy/core';
import { authenticateApiToken } from '../../domain/api-tokens.js';
import { bearerValue } from '../../oauth/bearer.js';
import type { Auth } from '../../routes.js';
import type { Db } from '../../store/db.js';
import type { TokenRecord } from '../../store/tokens.js';
import { invocation } from '../context.js';
import { header, queryParams } from '../request.js';
import { currentSession, requireCsrf, requireSession } from '../session.js';
import type { HttpEvent, HttpResult, LambdaContext } from '../types.js';

type Middleware = middy.MiddlewareObj<HttpEvent, HttpResult, Error, LambdaContext>;

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** Starts a read now without awaiting it; the function awaits it (and sees its error) later. */
function started<T>(promise: Promise<T>): Promise<T> {
  promise.catch(() => undefined); // not unhandled while the function has not awaited it yet
  return promise;
}

/**
 * Applies the route's authentication (shared/routes.ts `Auth`) before the function runs:
 * - bearer: the token from the header or the query (a missing one is 401 at once); the function
 *   starts its strongly consistent read (`token()`) together with its own first read;
 * - session: a live session or 401; for state-changing methods the session's CSRF token in
 *   `X-CSRF-Token` or 403 (the cookie alone proves nothing: a cross-site page can make the
 *   browser send it; SameSite=Lax is the second line);
 * - optional-session: the session's read starts here, and the function awaits it;
 * - keyrock-token: Keyrock's API token from `Authorization: Bearer` or else `X-Auth-Token` (the
 *   order Keyrock reads them in), with its user, or 401; awaited here, so nothing of the
 *   function runs for an unauthenticated caller.
 */
/**
 * How a bearer route reads its access token. It is handed in by `bearerEndpoint`
 * (shared/http/bearer-endpoint.ts) rather than imported here, because reading a token may mean
 * verifying a JWT (jose): only the bundles of bearer routes carry that code.
 */
export type TokenReader = (db: Db, value: string) => Promise<TokenRecord>;

export function authenticate(auth: Auth, readToken?: TokenReader): Middleware {
  if (auth === 'bearer' && !readToken) {
    throw new Error('A bearer route is built with bearerEndpoint (shared/http/bearer-endpoint.ts).');
  }
  return {
    before: async (request) => {
      const state = invocation(request.event);
      if (!state || auth === 'none') return;
      const { context } = state;
      const event = request.event;
      if (auth === 'bearer') {
        const query = queryParams(event);
        const value = bearerValue(header(event, 'authorization'), query);
        let read: Promise<TokenRecord> | undefined;
        context.query = query;
        context.bearer = value;
        context.token = () => {
          read ??= readToken!(context.db, value);
          return read;
        };
      } else if (auth === 'keyrock-token') {
        const authorization = header(event, 'authorization');
        const bearer = authorization?.match(/^bearer\s+(.+)$/i)?.[1]?.trim();
        context.caller = await authenticateApiToken(context.db, bearer ?? header(event, 'x-auth-token'));
      } else if (auth === 'optional-session') {
        context.session = started(currentSession(context.db, event));
      } else {
        const session = await requireSession(context.db, event);
        if (!SAFE_METHODS.has(event.requestContext.http.method)) {
          requireCsrf(session, header(event, 'x-csrf-token'));
        }
        context.session = session;
      }
    },
  };
}
