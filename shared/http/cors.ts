import { type Route, routes } from '../routes.js';
import { httpHandler } from './handler.js';
import type { HttpEvent, HttpHandler, HttpResult, LambdaContext } from './types.js';

/**
 * CORS for the endpoints browser applications call from their own origin (the implicit flow's
 * clients): /user, /users/{id}, /applications.json, /oauth2/token, /oauth2/revoke. Any origin is
 * allowed and credentials never are: tokens travel in a header, the query or the body, never in
 * cookies. API Gateway's built-in CORS is API-wide, but /oauth2/authorize and the portal's /api/*
 * must send none, so it is done here, driven by the route table's `cors` flag, in this one place.
 */
export const CORS_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  'access-control-allow-origin': '*',
  // Lets a browser client read the RFC 6750 challenge on a 401.
  'access-control-expose-headers': 'WWW-Authenticate',
});

function findRoute(routeKey: string): Route {
  const route = routes.find((r) => `${r.method} ${r.path}` === routeKey);
  if (!route) throw new Error(`No route ${routeKey} in shared/routes.ts`);
  return route;
}

/**
 * The route's handler in the shared middy stack, with CORS headers added when the route table
 * marks it `cors` (on errors too: a browser must be able to read a 401).
 */
export function routeHandler(
  routeKey: string,
  fn: (event: HttpEvent, context: LambdaContext) => Promise<HttpResult>,
): HttpHandler {
  const inner = httpHandler(routeKey, fn);
  if (!findRoute(routeKey).cors) return inner;
  return async (event, context) => {
    const result = await inner(event, context);
    return { ...result, headers: { ...result.headers, ...CORS_HEADERS } };
  };
}

/** The methods the route table serves at a path with CORS enabled, for a preflight's answer. */
export function corsMethods(path: string): string[] {
  const parts = path.split('/');
  return routes
    .filter((r) => r.cors && r.method !== 'OPTIONS')
    .filter((r) => {
      const segs = r.path.split('/');
      return segs.length === parts.length && segs.every((s, i) => s.startsWith('{') || s === parts[i]);
    })
    .map((r) => r.method);
}
