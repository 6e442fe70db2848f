/**
 * Keyrock's error body, `{"error": {"message", "code", "title"}}`: `code` repeats the HTTP status
 * and `title` is the reason phrase Keyrock writes for it (controllers/api/*.js). An unexpected
 * failure is Keyrock's "Internal error" in both places.
 */
const TITLES: Readonly<Record<number, string>> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  409: 'Conflict',
  413: 'Payload Too Large',
  415: 'Unsupported Media Type',
  429: 'Too Many Requests',
  500: 'Internal error',
};

export interface KeyrockError {
  error: { message: string; code: number; title: string };
}

/** The reason phrase Keyrock uses for a status (RFC 9110's, except Keyrock's "Internal error"). */
export function keyrockTitle(status: number): string {
  return TITLES[status] ?? (status >= 500 ? 'Internal error' : 'Bad Request');
}

export function keyrockError(status: number, message: string): KeyrockError {
  return { error: { message, code: status, title: keyrockTitle(status) } };
}
