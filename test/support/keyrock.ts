import { expect } from 'vitest';
import { registerUser } from '../../shared/domain/accounts.js';
import { basic, postForm, type Registered } from './oauth.js';
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

  /**
   * A role of an application holding one permission, made through /v1 as a provisioning script
   * makes it (create the permission, create the role, assign one to the other): the role's id.
   */
  async function roleWithPermission(
    token: string,
    appId: string,
    roleName: string,
    permission: Record<string, unknown>,
  ): Promise<string> {
    const perm = await call('POST', `/v1/applications/${appId}/permissions`, { token, json: { permission } });
    expect(perm.status).toBe(201);
    const role = await call('POST', `/v1/applications/${appId}/roles`, {
      token,
      json: { role: { name: roleName } },
    });
    expect(role.status).toBe(201);
    const roleId = (role.body.role as { id: string }).id;
    const permId = (perm.body.permission as { id: string }).id;
    const assigned = await call('PUT', `/v1/applications/${appId}/roles/${roleId}/permissions/${permId}`, {
      token,
    });
    expect(assigned.status).toBe(201);
    return roleId;
  }

  return { call, signIn, register, roleWithPermission };
}

/** A PEP proxy's own sign-in (Keyrock's POST /v3/auth/tokens): its status, 201 or 401. */
export async function pepSignIn(baseUrl: string, name: string, password: string): Promise<number> {
  const res = await fetch(`${baseUrl}/v3/auth/tokens`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ name, password }),
  });
  return res.status;
}

/** An IoT agent's sign-in: the password grant with its id as the username; its status. */
export async function iotSignIn(
  baseUrl: string,
  registered: Registered,
  username: string,
  password: string,
): Promise<number> {
  const res = await postForm(
    `${baseUrl}/oauth2/token`,
    { grant_type: 'password', username, password },
    { authorization: basic(registered.app.clientId, registered.secret) },
  );
  return res.status;
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
