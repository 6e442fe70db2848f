import { describe, expect, it } from 'vitest';
import {
  AppError,
  authorizePageError,
  authorizeRedirectError,
  invalid,
  invalidClient,
  invalidGrant,
  invalidToken,
  missingBearer,
  tooMany,
} from '../../../shared/errors.js';

describe('the error family', () => {
  it('gives each kind its status and default code', () => {
    expect(invalid('bad', 'email')).toMatchObject({ status: 400, code: 'invalid_request', field: 'email' });
    expect(tooMany('slow down')).toMatchObject({ status: 429, code: 'too_many_requests' });
    expect(new AppError('not_found', 'gone')).toMatchObject({ status: 404, code: 'not_found' });
  });

  it('answers a wrong client with 401 and a Basic challenge (RFC 6749 §5.2)', () => {
    expect(invalidClient('no')).toMatchObject({
      status: 401,
      code: 'invalid_client',
      headers: { 'www-authenticate': 'Basic realm="gatehouse"' },
    });
  });

  it('answers invalid_grant with 400, not the kind unauthorized’s 401 (RFC 6749 §5.2)', () => {
    expect(invalidGrant('used')).toMatchObject({ status: 400, code: 'invalid_grant', kind: 'validation' });
  });

  it('sends the bare Bearer challenge without a token and error="invalid_token" with a bad one (RFC 6750 §3)', () => {
    expect(missingBearer().headers['www-authenticate']).toBe('Bearer realm="gatehouse"');
    expect(invalidToken('expired')).toMatchObject({
      status: 401,
      code: 'invalid_token',
      headers: { 'www-authenticate': 'Bearer realm="gatehouse", error="invalid_token"' },
    });
  });

  it('keeps page errors on the page and redirect errors for the client', () => {
    const page = authorizePageError('access_denied', 'no CSRF', 403);
    expect(page).toMatchObject({
      status: 403,
      kind: 'forbidden',
      code: 'access_denied',
      redirect: undefined,
    });
    const target = { redirectUri: 'https://c.example/cb', mode: 'query' as const, state: 's' };
    expect(authorizeRedirectError(target, 'invalid_scope', 'bad').redirect).toEqual(target);
  });
});
