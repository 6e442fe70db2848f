import { describe, expect, it } from 'vitest';
import { areaOf } from '../../../infra/areas.js';
import { canonicalPath, compileRoutes, matchRoute, routes, routesOf } from '../../../shared/routes.js';

/** Keyrock mounts its /v1 API on /v3 too; the PEP proxy signs in at POST /v3/auth/tokens. */
describe('/v3 aliases of /v1 routes', () => {
  const compiled = compileRoutes(routes);

  it('serves /v3/auth/tokens with the /v1 route’s own functions and settings', () => {
    for (const method of ['POST', 'GET', 'DELETE']) {
      const v1 = matchRoute(compiled, method, '/v1/auth/tokens');
      const v3 = matchRoute(compiled, method, '/v3/auth/tokens');
      expect(v1 && 'route' in v1 && v3 && 'route' in v3).toBe(true);
      if (!v1 || !('route' in v1) || !v3 || !('route' in v3)) return;
      expect(v3.route.fn).toBe(v1.route.fn);
      expect({ ...v3.route, path: '', segments: [] }).toEqual({ ...v1.route, path: '', segments: [] });
    }
    expect(routesOf('v1-auth-tokens-create').map((r) => r.path)).toEqual([
      '/v1/auth/tokens',
      '/v3/auth/tokens',
    ]);
  });

  it('aliases nothing else: the rest of /v3 is unknown', () => {
    expect(matchRoute(compiled, 'GET', '/v3/applications')).toBeUndefined();
    expect(canonicalPath('/v3/auth/tokens')).toBe('/v1/auth/tokens');
    expect(canonicalPath('/v3/applications')).toBe('/v3/applications');
    expect(canonicalPath('/v1/auth/tokens')).toBe('/v1/auth/tokens');
  });

  it('puts /v3 in the Keyrock area with the /v1 routes', () => {
    expect(areaOf({ path: '/v3/auth/tokens' })).toBe('keyrock');
    expect(areaOf({ path: '/v1/applications/{applicationId}/pep_proxies' })).toBe('keyrock-apps');
  });
});
