import type middy from '@middy/core';
import { invocation } from '../context.js';
import { type ErrorStyle, renderError } from '../errors.js';
import { header } from '../request.js';
import type { HttpEvent, HttpResult, LambdaContext } from '../types.js';

type Middleware = middy.MiddlewareObj<HttpEvent, HttpResult, Error, LambdaContext>;

/** Maps any thrown error to a response through the one renderer, in the route's error style. */
export function renderErrors(style: ErrorStyle): Middleware {
  return {
    onError: (request) => {
      request.response = renderError(request.error, {
        style,
        acceptsHtml: (header(request.event, 'accept') ?? '').includes('text/html'),
        requestId: request.context.awsRequestId,
        fallbackRedirect: invocation(request.event)?.fallbackRedirect,
      });
    },
  };
}
