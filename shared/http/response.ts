import type { HttpResult } from './types.js';

export function json(statusCode: number, body: unknown, headers: Record<string, string> = {}): HttpResult {
  return {
    statusCode,
    headers: { 'content-type': 'application/json; charset=utf-8', ...headers },
    body: JSON.stringify(body),
  };
}

export function html(statusCode: number, body: string, headers: Record<string, string> = {}): HttpResult {
  return { statusCode, headers: { 'content-type': 'text/html; charset=utf-8', ...headers }, body };
}

export function redirect(
  location: string,
  headers: Record<string, string> = {},
  cookies?: string[],
): HttpResult {
  return {
    statusCode: 302,
    headers: { location, 'cache-control': 'no-store', ...headers },
    body: '',
    ...(cookies ? { cookies } : {}),
  };
}

/** Escapes text for HTML element content and attribute values. */
export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/**
 * RFC 6749 §5.1: a response carrying credentials (the token response) is never cached; its
 * content type is written as the RFC's own example does.
 */
export function noStoreJson(body: unknown): HttpResult {
  return {
    statusCode: 200,
    headers: {
      'content-type': 'application/json;charset=UTF-8',
      'cache-control': 'no-store',
      pragma: 'no-cache',
    },
    body: JSON.stringify(body),
  };
}
