import middy from '@middy/core';
import { logger } from '../log.js';
import { errorResponse } from './errors.js';
import { withSecurityHeaders } from './security-headers.js';
import type { HttpEvent, HttpHandler, HttpResult, LambdaContext } from './types.js';

type Request = middy.Request<HttpEvent, HttpResult, Error, LambdaContext>;

const startedAt = new WeakMap<object, number>();

/** Logs one JSON line per request: request id, route, status, duration. */
function requestLog(route: string): middy.MiddlewareObj<HttpEvent, HttpResult, Error, LambdaContext> {
  const done = (request: Request) => {
    const started = startedAt.get(request) ?? performance.now();
    logger.info('request', {
      requestId: request.context.awsRequestId,
      route,
      method: request.event.requestContext?.http?.method,
      path: request.event.rawPath,
      status: request.response?.statusCode,
      durationMs: Math.round((performance.now() - started) * 10) / 10,
    });
  };
  return {
    before: (request) => {
      startedAt.set(request, performance.now());
    },
    after: done,
    onError: done,
  };
}

/** Maps any thrown error to a response through the one error mapper. */
function errorMapper(): middy.MiddlewareObj<HttpEvent, HttpResult, Error, LambdaContext> {
  return {
    onError: (request) => {
      request.response = errorResponse(request.error, request.context.awsRequestId);
    },
  };
}

function securityHeaders(): middy.MiddlewareObj<HttpEvent, HttpResult, Error, LambdaContext> {
  const apply = (request: Request) => {
    if (request.response) request.response.headers = withSecurityHeaders(request.response.headers);
  };
  return { after: apply, onError: apply };
}

/**
 * Wraps a route's handler in the shared stack. Order matters: middy runs `after`/`onError` in
 * reverse, so the error mapper fills the response first, then headers are added, then it is logged.
 */
export function httpHandler(
  route: string,
  handler: (event: HttpEvent, context: LambdaContext) => Promise<HttpResult>,
): HttpHandler {
  return middy<HttpEvent, HttpResult, Error, LambdaContext>()
    .use(requestLog(route))
    .use(securityHeaders())
    .use(errorMapper())
    .handler(handler) as unknown as HttpHandler;
}
