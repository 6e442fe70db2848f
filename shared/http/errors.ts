import { AppError } from '../errors.js';
import { keyrockError } from '../keyrock/errors.js';
import { logger } from '../log.js';
import type { RedirectTarget } from '../model.js';
import { redirectWith } from '../oauth/redirect.js';
import { errorPage } from './pages/oauth-pages.js';
import { json, redirect } from './response.js';
import type { HttpResult } from './types.js';

export type ErrorStyle = 'json' | 'page' | 'keyrock';

export interface RenderOptions {
  /**
   * The route's error style (shared/routes.ts): JSON, a page for a browser that asks for HTML, or
   * Keyrock's `{error: {message, code, title}}` on its `/v1` API.
   */
  style: ErrorStyle;
  acceptsHtml: boolean;
  requestId: string;
  /**
   * Where an unexpected failure goes once an authorization request is known good: back to the
   * client as `server_error` (RFC 6749 §4.1.2.1) instead of a 500 page.
   */
  fallbackRedirect?: RedirectTarget | undefined;
}

// RFC 6749 §5.1 and RFC 6750: error answers carry credentials' context; nobody may cache them.
const NO_STORE = { 'cache-control': 'no-store', pragma: 'no-cache' };

/**
 * The one place that turns an error into a response. Bodies are `{error, error_description}`
 * (RFC 6749 §5.2), plus `field` for a field-level validation message, or Keyrock's
 * `{error: {message, code, title}}` on the `/v1` routes; an authorization error
 * that can go back to the client is a redirect carrying the same two values; on the
 * authorization endpoint, a browser gets the same as an HTML page. Anything unexpected is logged
 * in full and answered with a generic 500 carrying the request id: no stack trace reaches the caller.
 */
export function renderError(error: unknown, options: RenderOptions): HttpResult {
  if (error instanceof AppError) {
    if (error.redirect) {
      return redirect(redirectWith(error.redirect, { error: error.code, error_description: error.message }));
    }
    if (options.style === 'page' && options.acceptsHtml) {
      return errorPage(error.status, error.code, error.message);
    }
    if (options.style === 'keyrock') {
      return json(error.status, keyrockError(error.status, error.message), { ...NO_STORE, ...error.headers });
    }
    return json(
      error.status,
      { error: error.code, error_description: error.message, ...(error.field ? { field: error.field } : {}) },
      { ...NO_STORE, ...error.headers },
    );
  }
  logger.error('unexpected error', { requestId: options.requestId, error: error as Error });
  if (options.fallbackRedirect) {
    return redirect(
      redirectWith(options.fallbackRedirect, {
        error: 'server_error',
        error_description: 'The authorization server failed; try again.',
      }),
    );
  }
  const notice = `Something went wrong on our side. Quote request id ${options.requestId} when reporting it.`;
  if (options.style === 'keyrock') return json(500, keyrockError(500, notice), NO_STORE);
  return json(
    500,
    {
      error: 'server_error',
      error_description: notice,
      request_id: options.requestId,
    },
    NO_STORE,
  );
}
