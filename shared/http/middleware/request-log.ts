import type middy from '@middy/core';
import { logger } from '../../log.js';
import type { HttpEvent, HttpResult, LambdaContext } from '../types.js';

type Middleware = middy.MiddlewareObj<HttpEvent, HttpResult, Error, LambdaContext>;

const startedAt = new WeakMap<object, number>();

/** One JSON line per request: request id, route, status, duration (the logger redacts secrets). */
export function requestLog(route: string): Middleware {
  const done: Middleware['after'] = (request) => {
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
