import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { routes } from '../shared/routes.js';
import type { User } from '../shared/store/users.js';
import { basic, CALLBACK, newApp, newUser, PASSWORD, postForm, type Registered } from './support/oauth.js';
import { startService, type TestService } from './support/service.js';

/** Revocation (RFC 7009), metadata (RFC 8414) and CORS, with raw HTTP. */
let service: TestService;
let alice: User;
let reg: Registered;
let other: Registered;

beforeAll(async () => {
  service = await startService();
  alice = await newUser(service.db, 'alice');
  reg = await newApp(service.db, alice.id);
  other = await newApp(service.db, alice.id, { name: 'Other' });
});
afterAll(() => service.close());

const auth = (r: Registered = reg) => ({ authorization: basic(r.app.clientId, r.secret) });

async function passwordTokens() {
  const res = await postForm(
    `${service.url}/oauth2/token`,
    { grant_type: 'password', username: alice.email, password: PASSWORD },
    auth(),
  );
  return (await res.json()) as { access_token: string; refresh_token: string };
}

const userStatus = async (token: string) => (await fetch(`${service.url}/user?access_token=${token}`)).status;
const revoke = (form: Record<string, string>, headers: Record<string, string> = auth()) =>
  postForm(`${service.url}/oauth2/revoke`, form, headers);

describe('POST /oauth2/revoke', () => {
  it('revokes an access token', async () => {
    const t = await passwordTokens();
    expect(await userStatus(t.access_token)).toBe(200);
    const res = await revoke({ token: t.access_token, token_type_hint: 'access_token' });
    expect(res.status).toBe(200);
    expect(await userStatus(t.access_token)).toBe(401);
  });

  it('revoking a refresh token also revokes the access tokens issued from it', async () => {
    const t = await passwordTokens();
    expect((await revoke({ token: t.refresh_token })).status).toBe(200);
    expect(await userStatus(t.access_token)).toBe(401);
    const refresh = await postForm(
      `${service.url}/oauth2/token`,
      { grant_type: 'refresh_token', refresh_token: t.refresh_token },
      auth(),
    );
    expect(refresh.status).toBe(400);
  });

  it('answers 200 for an unknown token', async () => {
    expect((await revoke({ token: 'no-such-token' })).status).toBe(200);
  });

  it('a client cannot revoke another client’s token', async () => {
    const t = await passwordTokens();
    const res = await revoke({ token: t.access_token }, auth(other));
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ error: 'invalid_request' });
    expect(await userStatus(t.access_token)).toBe(200);
  });

  it('requires client authentication and a token', async () => {
    const anonymous = await revoke({ token: 'x' }, {});
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers.get('www-authenticate')).toBe('Basic realm="gatehouse"');
    const missing = await revoke({});
    expect(missing.status).toBe(400);
    expect(await missing.json()).toMatchObject({ error: 'invalid_request' });
  });
});

describe('GET /.well-known/oauth-authorization-server', () => {
  it('publishes RFC 8414 metadata', async () => {
    const res = await fetch(`${service.url}/.well-known/oauth-authorization-server`);
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({
      issuer: service.url,
      authorization_endpoint: `${service.url}/oauth2/authorize`,
      token_endpoint: `${service.url}/oauth2/token`,
      revocation_endpoint: `${service.url}/oauth2/revoke`,
      response_types_supported: ['code', 'token', 'id_token', 'id_token token'],
      grant_types_supported: [
        'authorization_code',
        'implicit',
        'password',
        'client_credentials',
        'refresh_token',
      ],
      code_challenge_methods_supported: ['S256'],
      token_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post'],
    });
  });
  it('on loopback, names the origin the client used (localhost or 127.0.0.1) as issuer', async () => {
    const loopback = service.url.replace('localhost', '127.0.0.1');
    const res = await fetch(`${loopback}/.well-known/oauth-authorization-server`);
    expect(await res.json()).toMatchObject({ issuer: loopback, token_endpoint: `${loopback}/oauth2/token` });
  });
});

describe('CORS', () => {
  it.each([
    ['/user', 'GET'],
    ['/users/1', 'GET'],
    ['/applications.json', 'GET'],
    ['/oauth2/token', 'POST'],
    ['/oauth2/revoke', 'POST'],
  ])('answers the preflight for %s', async (path, method) => {
    const res = await fetch(`${service.url}${path}`, {
      method: 'OPTIONS',
      headers: {
        origin: 'https://spa.example',
        'access-control-request-method': method,
        'access-control-request-headers': 'authorization',
      },
    });
    expect(res.status).toBe(204);
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(res.headers.get('access-control-allow-methods')).toContain(method);
    expect(res.headers.get('access-control-allow-headers')!.toLowerCase()).toContain('authorization');
    expect(res.headers.get('access-control-allow-credentials')).toBeNull();
  });

  it('allows any origin on answers, errors included, without credentials', async () => {
    const t = await passwordTokens();
    const ok = await fetch(`${service.url}/user`, {
      headers: { origin: 'https://spa.example', authorization: `Bearer ${t.access_token}` },
    });
    expect(ok.headers.get('access-control-allow-origin')).toBe('*');
    expect(ok.headers.get('access-control-allow-credentials')).toBeNull();
    const denied = await fetch(`${service.url}/user`, { headers: { origin: 'https://spa.example' } });
    expect(denied.status).toBe(401);
    expect(denied.headers.get('access-control-allow-origin')).toBe('*');
    expect(denied.headers.get('access-control-expose-headers')).toContain('WWW-Authenticate');
    const token = await postForm(`${service.url}/oauth2/token`, { grant_type: 'client_credentials' }, auth());
    expect(token.headers.get('access-control-allow-origin')).toBe('*');
  });

  it('sends no CORS headers from /oauth2/authorize, and has no preflight there', async () => {
    const res = await fetch(
      `${service.url}/oauth2/authorize?${new URLSearchParams({ response_type: 'code', client_id: reg.app.clientId, redirect_uri: CALLBACK })}`,
      { redirect: 'manual', headers: { origin: 'https://spa.example' } },
    );
    expect(res.status).toBe(302);
    expect(res.headers.get('access-control-allow-origin')).toBeNull();
    const preflight = await fetch(`${service.url}/oauth2/authorize`, { method: 'OPTIONS' });
    expect(preflight.headers.get('access-control-allow-origin')).toBeNull();
  });
});

describe('the route table', () => {
  it('marks exactly the browser-callable endpoints cors, each with a preflight route', () => {
    const cors = routes.filter((r) => r.cors && r.method !== 'OPTIONS').map((r) => `${r.method} ${r.path}`);
    expect(cors.sort()).toEqual(
      [
        'GET /.well-known/oauth-authorization-server',
        'GET /.well-known/openid-configuration',
        'GET /.well-known/jwks.json',
        'GET /applications.json',
        'GET /user',
        'GET /users/{id}',
        'GET /oauth2/userinfo',
        'POST /oauth2/userinfo',
        'POST /oauth2/revoke',
        'POST /oauth2/token',
      ].sort(),
    );
    const preflights = routes.filter((r) => r.method === 'OPTIONS');
    expect(preflights.every((r) => r.fn === 'cors-preflight' && r.table === 'none')).toBe(true);
    expect(preflights.map((r) => r.path).sort()).toEqual(
      [
        '/applications.json',
        '/oauth2/revoke',
        '/oauth2/token',
        '/oauth2/userinfo',
        '/user',
        '/users/{id}',
      ].sort(),
    );
    expect(
      routes.filter((r) => r.path.startsWith('/api/') || r.path === '/oauth2/authorize').some((r) => r.cors),
    ).toBe(false);
  });

  it('grants the lookups read-only table access', () => {
    for (const path of ['/user', '/users/{id}', '/applications.json']) {
      expect(routes.find((r) => r.method === 'GET' && r.path === path)?.table).toBe('read');
    }
  });
});
