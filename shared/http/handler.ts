import middy from '@middy/core';
import { canonicalPath, PREFLIGHT_FN, type RouteFn, type RouteOf, routesOf } from '../routes.js';
import { db } from '../store/db.js';
import { type Context, invocation, startInvocation } from './context.js';
import { authenticate, type TokenReader } from './middleware/auth.js';
import { cors } from './middleware/cors.js';
import { noStore } from './middleware/no-store.js';
import { renderErrors } from './middleware/render-errors.js';
import { requestLog } from './middleware/request-log.js';
import { securityHeaders } from './middleware/security-headers.js';
import type { HttpEvent, HttpHandler, HttpResult, LambdaContext } from './types.js';

type Middleware = middy.MiddlewareObj<HttpEvent, HttpResult, Error, LambdaContext>;

/** Opens the invocation's state (the function's context) before any other middleware needs it. */
function invocationState(): Middleware {
  return {
    before: (request) => {
      startInvocation(db, request.event, request.context.awsRequestId);
    },
  };
}

/**
 * The one handler factory. A function names its route by its `fn` (shared/routes.ts) and the
 * route's entry decides the middlewares: authentication, CORS, the error style, and no-store for
 * the portal's and /v1's answers about a signed-in person. The function receives `{db, event, …}` plus
 * what its route's authentication provides (typed from the route's own entry).
 *
 * Middy runs `after`/`onError` in reverse order of `use`: an error is rendered first, then CORS
 * and security headers are added, then the line is logged.
 */
export function endpoint<F extends RouteFn>(
  fn: F,
  impl: (context: Context<RouteOf<F>['auth']>) => Promise<HttpResult>,
  readToken?: TokenReader,
): HttpHandler {
  const served = routesOf(fn);
  const route = served[0];
  // A function serves one path: one route, or the verbs Keyrock accepts as twins for one action
  // (PUT and its older POST), which must then agree on everything the middlewares read. A /v3
  // alias of a /v1 path (shared/routes.ts) counts as that path.
  const twins = served.every(
    (r) =>
      route !== undefined &&
      canonicalPath(r.path) === canonicalPath(route.path) &&
      r.auth === route.auth &&
      r.cors === route.cors &&
      r.errors === route.errors,
  );
  if (!route || (fn !== PREFLIGHT_FN && !twins)) {
    throw new Error(`shared/routes.ts must list function ${fn} for one path, with one set of settings.`);
  }
  const label = `${served.map((r) => r.method).join('|')} ${route.path}`;
  const stack = middy<HttpEvent, HttpResult, Error, LambdaContext>()
    .use(invocationState())
    .use(requestLog(fn === PREFLIGHT_FN ? 'OPTIONS (CORS preflight)' : label))
    .use(securityHeaders());
  if (route.cors) stack.use(cors());
  // The portal's and Keyrock's management answers are about a signed-in person or a token.
  if (route.path.startsWith('/api/') || route.path.startsWith('/v1/')) stack.use(noStore());
  stack.use(renderErrors(route.errors ?? 'json')).use(authenticate(route.auth, readToken));
  return stack.handler((event: HttpEvent) => {
    const state = invocation(event);
    if (!state) throw new Error('The invocation state was not opened.');
    return impl(state.context as Context<RouteOf<F>['auth']>);
  }) as unknown as HttpHandler;
}
