import { afterEach, describe, expect, it, vi } from 'vitest';
import { authorizeRedirectError, invalid, invalidToken } from '../../../../shared/errors.js';
import { renderError } from '../../../../shared/http/errors.js';
import { logger } from '../../../../shared/log.js';

const json = { style: 'json' as const, acceptsHtml: false, requestId: 'req-1' };

afterEach(() => vi.restoreAllMocks());

describe('renderError', () => {
  it('answers an AppError as {error, error_description, field}, uncached, with its headers', () => {
    const res = renderError(invalid('email must be an email address.', 'email'), json);
    expect(res.statusCode).toBe(400);
    expect(JSON.parse(res.body!)).toEqual({
      error: 'invalid_request',
      error_description: 'email must be an email address.',
      field: 'email',
    });
    expect(res.headers).toMatchObject({ 'cache-control': 'no-store', pragma: 'no-cache' });
    const token = renderError(invalidToken('expired'), json);
    expect(token.statusCode).toBe(401);
    expect(token.headers?.['www-authenticate']).toContain('invalid_token');
  });

  it('shows a page to a browser on a page route, JSON to anyone else', () => {
    const error = invalid('client_id is missing.');
    const page = renderError(error, { ...json, style: 'page', acceptsHtml: true });
    expect(page.headers?.['content-type']).toContain('text/html');
    expect(page.body).toContain('client_id is missing.');
    expect(renderError(error, { ...json, style: 'page' }).headers?.['content-type']).toContain('json');
    expect(renderError(error, { ...json, acceptsHtml: true }).headers?.['content-type']).toContain('json');
  });

  it('sends a redirect error back to the client with the state (RFC 6749 §4.1.2.1)', () => {
    const target = { redirectUri: 'https://c.example/cb', mode: 'query' as const, state: 's1' };
    const res = renderError(authorizeRedirectError(target, 'invalid_scope', 'bad scope'), json);
    expect(res.statusCode).toBe(302);
    const location = new URL(res.headers!.location!);
    expect(location.searchParams.get('error')).toBe('invalid_scope');
    expect(location.searchParams.get('state')).toBe('s1');
  });

  it('answers in Keyrock’s {error: {message, code, title}} on a keyrock route, with its headers', () => {
    const keyrock = { ...json, style: 'keyrock' as const };
    const res = renderError(invalid('Missing parameter user in body request', 'user'), keyrock);
    expect(res.statusCode).toBe(400);
    expect(JSON.parse(res.body!)).toEqual({
      error: { message: 'Missing parameter user in body request', code: 400, title: 'Bad Request' },
    });
    expect(res.headers).toMatchObject({ 'cache-control': 'no-store' });
    const token = renderError(invalidToken('expired'), keyrock);
    expect(JSON.parse(token.body!).error).toEqual({ message: 'expired', code: 401, title: 'Unauthorized' });
    expect(token.headers?.['www-authenticate']).toBeDefined();
  });

  it('answers an unexpected failure on a keyrock route as Keyrock’s Internal error, with the request id', () => {
    const log = vi.spyOn(logger, 'error').mockImplementation(() => undefined);
    const res = renderError(new Error('secret internals'), { ...json, style: 'keyrock' });
    expect(res.statusCode).toBe(500);
    const body = JSON.parse(res.body!);
    expect(body.error).toMatchObject({ code: 500, title: 'Internal error' });
    expect(body.error.message).toContain('req-1');
    expect(res.body).not.toContain('internals');
    expect(log).toHaveBeenCalledOnce();
  });

  it('answers anything else with a 500 naming the request id and no stack, and logs it', () => {
    const log = vi.spyOn(logger, 'error').mockImplementation(() => undefined);
    const res = renderError(new Error('secret internals at line 12'), json);
    expect(res.statusCode).toBe(500);
    expect(res.body).toContain('req-1');
    expect(res.body).not.toContain('internals');
    expect(log).toHaveBeenCalledOnce();
  });

  it('sends an unexpected failure back to a known-good client as server_error', () => {
    vi.spyOn(logger, 'error').mockImplementation(() => undefined);
    const fallbackRedirect = { redirectUri: 'https://c.example/cb', mode: 'fragment' as const };
    const res = renderError(new Error('table down'), { ...json, fallbackRedirect });
    expect(res.statusCode).toBe(302);
    expect(res.headers?.location).toMatch(/^https:\/\/c\.example\/cb#error=server_error&/);
  });
});
