/**
 * Invokes a route's handler in this process, as Lambda would, with the payload 2.0 event the
 * local server builds (local/event.ts). Handlers are imported once and stay warm.
 */
import { buildEvent } from '../local/event.js';
import { invokeRoute } from '../local/handlers.js';
import type { HttpResult } from '../shared/http/types.js';
import { compileRoutes, matchRoute } from '../shared/routes.js';

export interface BenchRequest {
  method: string;
  /** Path with its query string. */
  url: string;
  headers?: Record<string, string>;
  body?: string;
}

const compiled = compileRoutes();

export function routeFor(method: string, url: string) {
  const match = matchRoute(compiled, method, url.split('?')[0]!);
  if (!match || !('route' in match)) throw new Error(`no route for ${method} ${url}`);
  return match;
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
  return invokeRoute(route, event);
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
