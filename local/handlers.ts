import { randomUUID } from 'node:crypto';
import type { HttpEvent, HttpHandler, HttpResult } from '../shared/http/types.js';
import type { Route } from '../shared/routes.js';
import { lambdaContext } from './event.js';

const loaded = new Map<string, Promise<HttpHandler>>();

/**
 * The one loader from a route to the handler Lambda runs for it, shared by the local server,
 * `idm invoke` and the benchmark. Each module is imported once and stays warm, as in a Lambda
 * container. `route.fn` comes from the route table, never from a request, so it is safe to
 * put in a module path.
 */
export function loadHandler(route: Route): Promise<HttpHandler> {
  let handler = loaded.get(route.fn);
  if (!handler) {
    handler = import(`../functions/${route.fn}.ts`).then((m: { handler: HttpHandler }) => m.handler);
    loaded.set(route.fn, handler);
  }
  return handler;
}

/** Runs a route's handler once with a payload 2.0 event, as Lambda would. */
export async function invokeRoute(route: Route, event: HttpEvent): Promise<HttpResult> {
  const handler = await loadHandler(route);
  return handler(event, lambdaContext(route.fn, event.requestContext?.requestId ?? randomUUID()));
}
