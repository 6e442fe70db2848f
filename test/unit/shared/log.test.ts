import { describe, expect, it } from 'vitest';
import { redact } from '../../../shared/log.js';

describe('redact', () => {
  it.each([
    'password',
    'Password',
    'newPassword',
    'pass',
    'passwordHash',
    'secret',
    'client_secret',
    'clientSecret',
    'token',
    'access_token',
    'refreshToken',
    'code',
    'code_verifier',
    'authorization',
    'Authorization',
    'cookie',
    'set-cookie',
    'session',
    'sessionId',
    'csrfToken',
    'x-csrf-token',
    'credentials',
    'hash',
  ])('hides the value of %j', (key) => {
    expect(redact(key, 'sensitive')).toBe('[redacted]');
  });

  it('hides values of any type, objects included', () => {
    expect(redact('token', 12345)).toBe('[redacted]');
    expect(redact('session', { id: 'abc' })).toBe('[redacted]');
  });

  it.each([
    'email',
    'user-agent',
    'route',
    'statusCode',
    'code_challenge',
    'codeChallengeMethod',
    'clientId',
    'level',
  ])('keeps the value of %j', (key) => {
    expect(redact(key, 'visible')).toBe('visible');
  });

  it('keeps empty values of secret keys, so a log shows that nothing was sent', () => {
    expect(redact('password', undefined)).toBeUndefined();
    expect(redact('password', null)).toBeNull();
    expect(redact('password', '')).toBe('');
  });

  it('keeps the root record (the empty key)', () => {
    const record = { message: 'hello' };
    expect(redact('', record)).toBe(record);
  });
});
