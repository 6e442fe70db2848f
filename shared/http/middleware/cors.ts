import type middy from '@middy/core';
import type { HttpEvent, HttpResult, LambdaContext } from '../types.js';

type Middleware = middy.MiddlewareObj<HttpEvent, HttpResult, Error, LambdaContext>;

/**
 * CORS for the endpoints browser applications call from their own origin (the implicit flow's
 * clients). Any origin is allowed and credentials never are: tokens travel in a header, the query
 * or the body, never in cookies. API Gateway's built-in CORS is API-wide, but /oauth2/authorize
 * and the portal's /api/* must send none, so it is done here, per route (the route table's
 * `cors` flag), on errors too: a browser must be able to read a 401.
 */
export const CORS_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  'access-control-allow-origin': '*',
  // Lets a browser client read the RFC 6750 challenge on a 401.
  'access-control-expose-headers': 'WWW-Authenticate',
});

export function cors(): Middleware {
  const apply: Middleware['after'] = (request) => {
    if (request.response) request.response.headers = { ...request.response.headers, ...CORS_HEADERS };
  };
  return { after: apply, onError: apply };
}
