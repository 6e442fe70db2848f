import type { RedirectTarget } from './model.js';

/**
 * The one error family. Every layer throws an AppError that carries everything the one renderer
 * (shared/http/errors.ts) needs: the kind (and so the status), an optional protocol error code
 * (RFC 6749 §5.2, RFC 6750 §3.1), response headers (a challenge), the input field, and for the
 * authorization endpoint the client redirect the error goes back to. Nobody catches an error to
 * translate it into another: the renderer picks the body shape from the route (JSON or an HTML
 * page today, Keyrock's `{error: {message, code, title}}` on its paths), not from the error.
 */
export type ErrorKind = 'validation' | 'unauthorized' | 'forbidden' | 'not_found' | 'conflict' | 'too_many';

export const STATUS: Readonly<Record<ErrorKind, number>> = {
  validation: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  too_many: 429,
};

/** The `error` code a kind answers with when the error names none of its own. */
const CODE: Readonly<Record<ErrorKind, string>> = {
  validation: 'invalid_request',
  unauthorized: 'unauthorized',
  forbidden: 'forbidden',
  not_found: 'not_found',
  conflict: 'conflict',
  too_many: 'too_many_requests',
};

export interface ErrorDetails {
  /** The input field the error concerns, for field-level messages in the portal and the CLI. */
  field?: string | undefined;
  /** A protocol error code (`invalid_grant`, `invalid_token`, …) in place of the kind's own. */
  code?: string | undefined;
  /** A status in place of the kind's own (RFC 6749 §5.2 answers invalid_grant with 400). */
  status?: number | undefined;
  headers?: Readonly<Record<string, string>> | undefined;
  /** Authorization endpoint: the error goes back to the client by redirect (RFC 6749 §4.1.2.1). */
  redirect?: RedirectTarget | undefined;
}

export class AppError extends Error {
  readonly field: string | undefined;
  readonly status: number;
  readonly code: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly redirect: RedirectTarget | undefined;

  constructor(
    readonly kind: ErrorKind,
    message: string,
    details: ErrorDetails = {},
  ) {
    super(message);
    this.name = 'AppError';
    this.field = details.field;
    this.status = details.status ?? STATUS[kind];
    this.code = details.code ?? CODE[kind];
    this.headers = details.headers ?? {};
    this.redirect = details.redirect;
  }
}

export const invalid = (message: string, field?: string) => new AppError('validation', message, { field });
export const notFound = (message: string) => new AppError('not_found', message);
export const conflict = (message: string, field?: string) => new AppError('conflict', message, { field });
export const forbidden = (message: string) => new AppError('forbidden', message);
export const unauthorized = (message: string) => new AppError('unauthorized', message);
export const tooMany = (message: string) => new AppError('too_many', message);

// OAuth 2.0 errors, named once. Statuses per RFC 6749 §5.2 (token endpoint), RFC 6750 §3.1
// (protected resources) and RFC 7009 §2.2.1 (revocation).
export const REALM = 'gatehouse';

const oauth = (kind: ErrorKind, code: string, status: number, headers?: Record<string, string>) => {
  return (description: string) => new AppError(kind, description, { code, status, headers });
};

export const invalidRequest = oauth('validation', 'invalid_request', 400);
/** RFC 6749 §5.2: 401 with a challenge for the authentication scheme the client may use. */
export const invalidClient = oauth('unauthorized', 'invalid_client', 401, {
  'www-authenticate': `Basic realm="${REALM}"`,
});
export const invalidGrant = oauth('validation', 'invalid_grant', 400);
export const unauthorizedClient = oauth('validation', 'unauthorized_client', 400);
export const unsupportedGrantType = oauth('validation', 'unsupported_grant_type', 400);
export const invalidScope = oauth('validation', 'invalid_scope', 400);

/** RFC 6750 §3: no token at all gets the bare challenge, without an error code in it. */
export const missingBearer = () =>
  new AppError('unauthorized', 'An access token is required.', {
    code: 'invalid_request',
    headers: { 'www-authenticate': `Bearer realm="${REALM}"` },
  });

/** RFC 6750 §3.1: a missing, expired, revoked or unknown token. */
export const invalidToken = oauth('unauthorized', 'invalid_token', 401, {
  'www-authenticate': `Bearer realm="${REALM}", error="invalid_token"`,
});

/** RFC 6750 §3.1: the token is valid but its scope does not cover the request (403). */
export const insufficientScope = (scope: string, description: string) =>
  new AppError('forbidden', description, {
    code: 'insufficient_scope',
    headers: { 'www-authenticate': `Bearer realm="${REALM}", error="insufficient_scope", scope="${scope}"` },
  });

/** RFC 6750 §3.1: a malformed resource request, e.g. the token sent two ways at once. */
export const invalidBearerRequest = oauth('validation', 'invalid_request', 400, {
  'www-authenticate': `Bearer realm="${REALM}", error="invalid_request"`,
});

/**
 * An authorization request that cannot go back to the client (unknown client, wrong redirect
 * URI): shown to the user, never redirected (RFC 6749 §4.1.2.1), so nobody can bounce users to
 * an arbitrary URI.
 */
export const authorizePageError = (code: string, description: string, status = 400) =>
  new AppError(status === 403 ? 'forbidden' : 'validation', description, { code, status });

/** An authorization request error that goes back to the client's redirect URI. */
export const authorizeRedirectError = (target: RedirectTarget, code: string, description: string) =>
  new AppError('validation', description, { code, redirect: target });

/**
 * Keyrock's API token (`X-Auth-Token`, or `Authorization: Bearer` as Keyrock also reads it) is
 * missing, unknown, expired or revoked: 401 with a challenge (RFC 9110 §11.6.1).
 */
export const apiTokenRefused = (message: string) =>
  new AppError('unauthorized', message, { headers: { 'www-authenticate': `Bearer realm="${REALM}"` } });
