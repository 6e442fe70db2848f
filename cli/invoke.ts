import { readFile } from 'node:fs/promises';
import { buildEvent } from '../local/event.js';
import { invokeRoute } from '../local/handlers.js';
import type { HttpEvent, HttpResult } from '../shared/http/types.js';
import { compileRoutes, matchRoute, type Route, routes } from '../shared/routes.js';
import { UsageError } from './args.js';

/** The route a function serves; the name must be in the route table (it becomes a module path). */
export function routeOf(fn: string): Route {
  const route = routes.find((r) => r.fn === fn);
  if (!route) {
    const known = [...new Set(routes.map((r) => r.fn))].sort().join(', ');
    throw new UsageError(`Unknown function "${fn}"; the route table has: ${known}.`);
  }
  return route;
}

export interface RequestFlags {
  event?: string | undefined;
  method?: string | undefined;
  path?: string | undefined;
  query?: string[] | undefined;
  header?: string[] | undefined;
  body?: string | undefined;
}

/**
 * The payload 2.0 event for one invocation: read from --event as is (like `sam local invoke
 * --event`), or built from the request flags exactly as the local server builds it.
 */
export async function eventFor(route: Route, flags: RequestFlags): Promise<HttpEvent> {
  if (flags.event !== undefined) {
    const others = (['method', 'path', 'query', 'header', 'body'] as const).filter(
      (k) => flags[k] !== undefined,
    );
    if (others.length > 0) {
      throw new UsageError(`--event cannot be combined with ${others.map((k) => `--${k}`).join(', ')}.`);
    }
    let text: string;
    try {
      text = await readFile(flags.event, 'utf8');
    } catch {
      throw new UsageError(`--event: cannot read the file "${flags.event}".`);
    }
    let event: unknown;
    try {
      event = JSON.parse(text);
    } catch {
      throw new UsageError(`--event: "${flags.event}" is not valid JSON.`);
    }
    if (typeof event !== 'object' || event === null || Array.isArray(event)) {
      throw new UsageError(`--event: "${flags.event}" must hold one JSON object (a payload 2.0 event).`);
    }
    return event as HttpEvent;
  }

  const method = (flags.method ?? route.method).toUpperCase();
  const path = flags.path ?? route.path;
  if (path.includes('{')) {
    throw new UsageError(`--path is required: the route is ${route.method} ${route.path}.`);
  }
  const match = matchRoute(compileRoutes([route]), method, path);
  if (!match || !('route' in match)) {
    throw new UsageError(
      `${method} ${path} is not the route of this function (${route.method} ${route.path}).`,
    );
  }
  const query = (flags.query ?? []).map((pair) => {
    const eq = pair.indexOf('=');
    const [k, v] = eq === -1 ? [pair, ''] : [pair.slice(0, eq), pair.slice(eq + 1)];
    if (k === '') throw new UsageError(`--query must look like name=value, got "${pair}".`);
    return `${encodeURIComponent(k)}=${encodeURIComponent(v)}`;
  });
  const rawHeaders: string[] = [];
  for (const line of flags.header ?? []) {
    const colon = line.indexOf(':');
    const name = colon === -1 ? '' : line.slice(0, colon).trim();
    // RFC 9110 §5.1: a field name is a token.
    if (!/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(name)) {
      throw new UsageError(`--header must look like 'Name: value', got "${line}".`);
    }
    rawHeaders.push(name, line.slice(colon + 1).trim());
  }
  if (!rawHeaders.some((h, i) => i % 2 === 0 && h.toLowerCase() === 'host')) {
    rawHeaders.push('host', 'localhost');
  }
  const body = Buffer.from(flags.body ?? '', 'utf8');
  return buildEvent(
    {
      method,
      url: query.length > 0 ? `${path}?${query.join('&')}` : path,
      rawHeaders,
      body,
    },
    route,
    match.params,
  );
}

/** Runs the function's handler once, in this process, as Lambda would. */
export function invoke(route: Route, event: HttpEvent): Promise<HttpResult> {
  // `route` comes from the route table (checked by routeOf), never from free text.
  return invokeRoute(route, event);
}
