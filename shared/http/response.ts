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
