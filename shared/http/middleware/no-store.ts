import type middy from '@middy/core';
import type { HttpEvent, HttpResult, LambdaContext } from '../types.js';

type Middleware = middy.MiddlewareObj<HttpEvent, HttpResult, Error, LambdaContext>;

/** Answers about a signed-in person are never stored by a browser or a shared cache. */
export function noStore(): Middleware {
  return {
    after: (request) => {
      if (request.response) {
        request.response.headers = { 'cache-control': 'no-store', ...request.response.headers };
      }
    },
  };
}
