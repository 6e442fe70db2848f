import { requireAccessToken } from '../domain/access-tokens.js';
import type { RouteFn, RouteOf } from '../routes.js';
import type { Context } from './context.js';
import { endpoint } from './handler.js';
import type { HttpHandler, HttpResult } from './types.js';

/**
 * The handler factory for routes with `auth: 'bearer'` (RFC 6750 resource endpoints): `endpoint`
 * with the access-token reader, which verifies JWT access tokens (RFC 9068) as well as opaque
 * ones. Kept apart so that jose is bundled only into the functions that read bearer tokens.
 */
export function bearerEndpoint<F extends RouteFn>(
  fn: F,
  impl: (context: Context<RouteOf<F>['auth']>) => Promise<HttpResult>,
): HttpHandler {
  return endpoint(fn, impl, requireAccessToken);
}
