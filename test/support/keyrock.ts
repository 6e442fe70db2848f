import { expect } from 'vitest';
import { registerUser } from '../../shared/domain/accounts.js';
import type { TestService } from './service.js';

/**
 * Keyrock's /v1 API as its scripts call it: plain fetch, the API token in `X-Auth-Token`, JSON
 * bodies. Shared by the /v1 test files so each asserts behaviour, not plumbing.
 */
export const PASSWORD = 'correct horse battery';

export interface KeyrockAnswer {
  status: number;
  headers: Headers;
  body: Record<string, unknown> & { error?: { message: string; code: number; title: string } };
}

export interface CallInit {
  /** A Keyrock API token, sent as `X-Auth-Token`. */
  token?: string;
  headers?: Record<string, string>;
  json?: unknown;
  /** A body sent as it is (with `type`, or `application/json`): malformed input. */
  raw?: string;
  type?: string;
}

/** The /v1 client of one running service (`service` is read at call time, after beforeAll). */
export function keyrockClient(service: () => TestService) {
  async function call(method: string, path: string, init: CallInit = {}): Promise<KeyrockAnswer> {
    const headers: Record<string, string> = { ...init.headers };
    if (init.token) headers['x-auth-token'] = init.token;
    let body: string | undefined;
    if (init.json !== undefined) {
      body = JSON.stringify(init.json);
      headers['content-type'] = 'application/json';
    } else if (init.raw !== undefined) {
      body = init.raw;
      headers['content-type'] = init.type ?? 'application/json';
    } else if (init.type) headers['content-type'] = init.type;
    const res = await fetch(`${service().url}${path}`, { method, headers, body });
    const text = await res.text();
    return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : {} };
  }

  /** `POST /v1/auth/tokens` with a name and password: the API token Keyrock puts in X-Subject-Token. */
  async function signIn(name: string, password = PASSWORD): Promise<string> {
    const res = await call('POST', '/v1/auth/tokens', { json: { name, password } });
    expect(res.status).toBe(201);
    return res.headers.get('x-subject-token')!;
  }

  /** A user made as the CLI and the portal make them (bcrypt cost 4 keeps tests fast). */
  const register = (email: string, displayName: string) =>
    registerUser(service().db, { email, password: PASSWORD, displayName }, 4);

  return { call, signIn, register };
}

// The reason phrases Keyrock writes as `title` (its controllers/api/*.js), spelled out here
// rather than imported, so a change in shared/keyrock/errors.ts shows up as a failing test.
const TITLES: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  409: 'Conflict',
  429: 'Too Many Requests',
};

/** Keyrock's error answer: `{error: {message, code, title}}`, code = status, never cached. */
export function expectKeyrockError(res: KeyrockAnswer, status: number, message?: string) {
  expect(res.status).toBe(status);
  expect(res.body).toEqual({
    error: { message: message ?? expect.any(String), code: status, title: TITLES[status] },
  });
  expect(res.headers.get('cache-control')).toBe('no-store');
}
