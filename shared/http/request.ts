import { invalid } from '../errors.js';
import type { HttpEvent } from './types.js';

/** Header lookup that ignores case (HTTP API lowercases names already; local runs may not). */
export function header(event: HttpEvent, name: string): string | undefined {
  const lower = name.toLowerCase();
  for (const [key, value] of Object.entries(event.headers ?? {})) {
    if (key.toLowerCase() === lower) return value;
  }
  return undefined;
}

/** The raw body as a Buffer, decoding base64 where API Gateway encoded it. */
export function rawBody(event: HttpEvent): Buffer {
  if (!event.body) return Buffer.alloc(0);
  return event.isBase64Encoded ? Buffer.from(event.body, 'base64') : Buffer.from(event.body, 'utf8');
}

/**
 * Query parameters, each name at most once. A repeated parameter is an error
 * (RFC 6749 §3.1: "Request and response parameters MUST NOT be included more than once").
 */
export function queryParams(event: HttpEvent): Map<string, string> {
  return uniqueParams(new URLSearchParams(event.rawQueryString ?? ''));
}

export function uniqueParams(params: URLSearchParams): Map<string, string> {
  const out = new Map<string, string>();
  for (const [name, value] of params) {
    if (out.has(name)) throw invalid(`Parameter ${name} is repeated.`, name);
    out.set(name, value);
  }
  return out;
}

/** An application/x-www-form-urlencoded body; any other content type is refused. */
export function formBody(event: HttpEvent): Map<string, string> {
  const type = (header(event, 'content-type') ?? '').split(';')[0]!.trim().toLowerCase();
  if (type !== 'application/x-www-form-urlencoded') {
    throw invalid('The body must be application/x-www-form-urlencoded.');
  }
  return uniqueParams(new URLSearchParams(rawBody(event).toString('utf8')));
}

/** A JSON object body. */
export function jsonBody(event: HttpEvent): Record<string, unknown> {
  const type = (header(event, 'content-type') ?? '').split(';')[0]!.trim().toLowerCase();
  if (type !== 'application/json') throw invalid('The body must be application/json.');
  let parsed: unknown;
  try {
    parsed = JSON.parse(rawBody(event).toString('utf8') || 'null');
  } catch {
    throw invalid('The body is not valid JSON.');
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw invalid('The body must be a JSON object.');
  }
  return parsed as Record<string, unknown>;
}

/** Cookies by name (payload 2.0 passes them in `cookies`, one `name=value` each). */
export function cookies(event: HttpEvent): Map<string, string> {
  const out = new Map<string, string>();
  const list = event.cookies ?? (header(event, 'cookie') ?? '').split(';');
  for (const raw of list) {
    const pair = raw.trim();
    const eq = pair.indexOf('=');
    if (eq <= 0) continue; // RFC 6265 §5.2: a pair without a name is ignored
    const name = pair.slice(0, eq).trim();
    if (!out.has(name)) out.set(name, pair.slice(eq + 1).trim());
  }
  return out;
}

/** The path parameter an integer id route needs; anything else is a 400. */
export function pathParam(event: HttpEvent, name: string): string {
  const value = event.pathParameters?.[name];
  if (value === undefined) throw invalid(`Missing path parameter ${name}.`, name);
  return value;
}

/** The origin the caller used, for absolute URLs when no public URL is configured. */
export function requestOrigin(event: HttpEvent): string {
  const host =
    header(event, 'x-forwarded-host') ??
    header(event, 'host') ??
    event.requestContext?.domainName ??
    'localhost';
  const proto =
    header(event, 'x-forwarded-proto') ??
    (host.startsWith('localhost') || host.startsWith('127.') ? 'http' : 'https');
  return `${proto}://${host}`;
}
