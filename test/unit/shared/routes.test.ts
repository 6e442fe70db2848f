import { describe, expect, it } from 'vitest';
import {
  canonicalPath,
  compileRoutes,
  corsMethods,
  matchRoute,
  PREFLIGHT_FN,
  type Route,
  routes,
  routesOf,
} from '../../../shared/routes.js';

// Test routes copy a real entry's settings, so they stay valid whatever fields a route gains.
const template = routes[0]!;
const route = (method: Route['method'], path: string, fn: string): Route => ({
  ...template,
  method,
  path,
  fn,
});

const LIST: Route[] = [
  route('GET', '/users/{id}', 'user-get'),
  route('DELETE', '/users/{id}', 'user-delete'),
  route('GET', '/users/me', 'user-me'),
  route('GET', '/apps/{appId}/roles/{roleId}', 'role-get'),
  route('POST', '/apps', 'app-create'),
];
const compiled = compileRoutes(LIST);

/** The function and parameters a request reaches, or what matchRoute said instead. */
function reach(method: string, path: string) {
  const result = matchRoute(compiled, method, path);
  if (result && 'route' in result) return { fn: result.route.fn, params: result.params };
  return result;
}

describe('matchRoute', () => {
  it('finds a literal route', () => {
    expect(reach('POST', '/apps')).toEqual({ fn: 'app-create', params: {} });
  });

  it('fills path parameters', () => {
    expect(reach('GET', '/users/42')).toEqual({ fn: 'user-get', params: { id: '42' } });
    expect(reach('GET', '/apps/7/roles/9')).toEqual({ fn: 'role-get', params: { appId: '7', roleId: '9' } });
  });

  it('prefers a literal segment over a parameter, in either order of the table', () => {
    expect(reach('GET', '/users/me')).toEqual({ fn: 'user-me', params: {} });
    const reversed = compileRoutes([...LIST].reverse());
    const result = matchRoute(reversed, 'GET', '/users/me');
    expect(result && 'route' in result ? result.route.fn : result).toBe('user-me');
  });

  it('lists the methods a known path allows when the method is not one of them', () => {
    const result = reach('PUT', '/users/42');
    expect(result).toHaveProperty('allowed');
    expect([...(result as { allowed: string[] }).allowed].sort()).toEqual(['DELETE', 'GET']);
    expect(reach('GET', '/apps')).toEqual({ allowed: ['POST'] });
  });

  it('answers undefined for an unknown path', () => {
    expect(reach('GET', '/nothing')).toBeUndefined();
    expect(reach('GET', '/users/42/extra')).toBeUndefined();
    expect(reach('GET', '/users')).toBeUndefined();
  });

  it('percent-decodes parameters, an encoded slash staying inside its segment', () => {
    expect(reach('GET', '/users/a%20b')).toEqual({ fn: 'user-get', params: { id: 'a b' } });
    expect(reach('GET', '/users/%E2%9C%93')).toEqual({ fn: 'user-get', params: { id: '✓' } });
    expect(reach('GET', '/users/a%2Fb')).toEqual({ fn: 'user-get', params: { id: 'a/b' } });
  });

  it('does not match a parameter with bad percent-encoding', () => {
    expect(reach('GET', '/users/%E0%A4%A')).toBeUndefined();
    expect(reach('GET', '/users/%')).toBeUndefined();
    expect(reach('PUT', '/users/%zz')).toBeUndefined();
  });

  it('does not match an empty segment to a parameter', () => {
    expect(reach('GET', '/users/')).toBeUndefined();
    expect(reach('GET', '/apps//roles/9')).toBeUndefined();
  });

  it('does not match literal segments case-insensitively', () => {
    expect(reach('GET', '/Users/me')).toBeUndefined();
  });
});

describe('compileRoutes', () => {
  it('compiles the real route table so that every route reaches its own function', () => {
    const table = compileRoutes();
    expect(table).toHaveLength(routes.length);
    for (const r of routes) {
      const path = r.path.replace(/\{[^}]+\}/g, 'p1');
      const result = matchRoute(table, r.method, path);
      expect(result && 'route' in result ? result.route.fn : result, `${r.method} ${r.path}`).toBe(r.fn);
    }
  });
});

describe('derived routes', () => {
  it('gives every path with a cors route its preflight, served by one function without table access', () => {
    const preflights = routes.filter((r) => r.method === 'OPTIONS');
    const needing = new Set(routes.filter((r) => r.cors === true).map((r) => r.path));
    expect(new Set(preflights.map((r) => r.path))).toEqual(needing);
    for (const r of preflights) expect(r).toMatchObject({ fn: PREFLIGHT_FN, table: 'none', auth: 'none' });
    // A simple GET (the metadata document) is never preflighted by browsers.
    expect(preflights.some((r) => r.path.startsWith('/.well-known/'))).toBe(false);
  });

  it('gives each function but the preflight one path: one route, or Keyrock\u2019s PUT/POST twins', () => {
    const fns = new Set(routes.map((r) => r.fn));
    for (const fn of fns) {
      if (fn === PREFLIGHT_FN) continue;
      // A /v3 alias of a /v1 route is its twin on another path (routes-v3.test.ts checks them).
      const served = routesOf(fn).filter((r) => canonicalPath(r.path) === r.path);
      const methods = served.map((r) => r.method).sort();
      if (served.length > 1) expect(methods).toEqual(['POST', 'PUT']);
      const { method: _, ...settings } = served[0]!;
      for (const r of served) expect({ ...r, method: undefined }).toEqual({ ...settings, method: undefined });
    }
  });

  it('answers a preflight with the methods served at the concrete path', () => {
    expect(corsMethods('/users/42')).toEqual(['GET']);
    expect(corsMethods('/oauth2/token')).toEqual(['POST']);
    expect(corsMethods('/api/session')).toEqual([]);
  });

  it('requires a session on every portal route but sign-up, sign-in’s steps, the session probes and mailed links', () => {
    const open = routes
      .filter((r) => r.path.startsWith('/api/') && r.auth !== 'session')
      .map((r) => `${r.method} ${r.path}`);
    expect(open.sort()).toEqual([
      'GET /api/session',
      // An e-mail change link: its token stands for the request, as a verification link's does.
      'POST /api/account/email/confirm',
      'POST /api/email-verification',
      'POST /api/email-verification/confirm',
      'POST /api/password-reset',
      'POST /api/password-reset/confirm',
      'POST /api/session',
      // Two-factor sign-in's second step and the passkey sign-in: a ticket stands for the password.
      'POST /api/session/passkey',
      'POST /api/session/verify',
      'POST /api/users',
    ]);
  });

  it('lets only the routes that mail links send mail', () => {
    const senders = routes.filter((r) => r.mail === 'send').map((r) => `${r.method} ${r.path}`);
    expect(senders.sort()).toEqual([
      'POST /api/account/email',
      'POST /api/email-verification',
      'POST /api/password-reset',
      'POST /api/users',
    ]);
  });
});
