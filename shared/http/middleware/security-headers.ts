import type middy from '@middy/core';
import { withSecurityHeaders } from '../security-headers.js';
import type { HttpEvent, HttpResult, LambdaContext } from '../types.js';

type Middleware = middy.MiddlewareObj<HttpEvent, HttpResult, Error, LambdaContext>;

/** Adds the headers every response carries (shared/http/security-headers.ts), errors included. */
export function securityHeaders(): Middleware {
  const apply: Middleware['after'] = (request) => {
    if (request.response) request.response.headers = withSecurityHeaders(request.response.headers);
  };
  return { after: apply, onError: apply };
}
