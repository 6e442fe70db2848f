/**
 * Invokes a route's handler in this process, as Lambda would, with the payload 2.0 event the
 * local server builds (local/event.ts). Handlers are imported once and stay warm.
 */
import { randomUUID } from 'node:crypto';
import { buildEvent, lambdaContext } from '../local/event.js';
import type { HttpHandler, HttpResult } from '../shared/http/types.js';
import { compileRoutes, matchRoute } from '../shared/routes.js';

export interface BenchRequest {
  method: string;
  /** Path with its query string. */
  url: string;
  headers?: Record<string, string>;
  body?: string;
}

const compiled = compileRoutes();
const handlers = new Map<string, Promise<HttpHandler>>();

export function routeFor(method: string, url: string) {
  const match = matchRoute(compiled, method, url.split('?')[0]!);
  if (!match || !('route' in match)) throw new Error(`no route for ${method} ${url}`);
  return match;
}

function handlerOf(fn: string): Promise<HttpHandler> {
  let loaded = handlers.get(fn);
  if (!loaded) {
    // `fn` comes from the route table.
    loaded = import(`../functions/${fn}.ts`).then((m: { handler: HttpHandler }) => m.handler);
    handlers.set(fn, loaded);
  }
  return loaded;
}

export async function invoke(request: BenchRequest): Promise<HttpResult> {
  const { route, params } = routeFor(request.method, request.url);
  const rawHeaders: string[] = ['host', 'localhost'];
  for (const [name, value] of Object.entries(request.headers ?? {})) rawHeaders.push(name, value);
  const event = buildEvent(
    {
      method: request.method,
      url: request.url,
      rawHeaders,
      body: Buffer.from(request.body ?? '', 'utf8'),
    },
    route,
    params,
  );
  const handler = await handlerOf(route.fn);
  return handler(event, lambdaContext(route.fn, randomUUID()));
}

/** A form body for the token endpoint. */
export function form(fields: Record<string, string>): string {
  return new URLSearchParams(fields).toString();
}

export function basic(clientId: string, secret: string): string {
  // RFC 6749 §2.3.1: form-encode each part before Basic encoding.
  const enc = (s: string) => encodeURIComponent(s);
  return `Basic ${Buffer.from(`${enc(clientId)}:${enc(secret)}`).toString('base64')}`;
}
