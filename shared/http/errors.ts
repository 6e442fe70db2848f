import { AppError, type ErrorKind } from '../errors.js';
import { logger } from '../log.js';
import { OAuthError } from './oauth-error.js';
import { json } from './response.js';
import type { HttpResult } from './types.js';

const STATUS: Record<ErrorKind, number> = {
  validation: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  too_many: 429,
};

const CODE: Record<ErrorKind, string> = {
  validation: 'invalid_request',
  unauthorized: 'unauthorized',
  forbidden: 'forbidden',
  not_found: 'not_found',
  conflict: 'conflict',
  too_many: 'too_many_requests',
};

/**
 * The one place that turns an error into a response. Every body has the same shape,
 * `{error, error_description}` (RFC 6749 §5.2), plus `field` for a field-level validation message.
 * Anything unexpected is logged in full and answered with a generic 500 carrying the request id:
 * a stack trace never reaches the caller.
 */
export function errorResponse(error: unknown, requestId: string): HttpResult {
  if (error instanceof OAuthError) {
    return json(
      error.status,
      { error: error.error, error_description: error.description },
      { 'cache-control': 'no-store', pragma: 'no-cache', ...error.headers },
    );
  }
  if (error instanceof AppError) {
    return json(STATUS[error.kind], {
      error: CODE[error.kind],
      error_description: error.message,
      ...(error.field ? { field: error.field } : {}),
    });
  }
  logger.error('unexpected error', { requestId, error: error as Error });
  return json(500, {
    error: 'server_error',
    error_description: `Something went wrong on our side. Quote request id ${requestId} when reporting it.`,
    request_id: requestId,
  });
}
