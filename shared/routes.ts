/**
 * The route table: every endpoint, the function that serves it and what that function may touch.
 * The local server builds its router from this list; the CDK stack builds the API, one Lambda per
 * entry and each function's IAM grants from it. Nothing lists routes twice.
 */
export type TableAccess = 'none' | 'read' | 'write';
export type BucketAccess = 'none' | 'read' | 'write';

export interface Route {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'OPTIONS';
  /** API Gateway path syntax: `{name}` is one path segment. */
  path: string;
  /** File name under functions/ (without .ts) and the Lambda's logical name. */
  fn: string;
  table: TableAccess;
  logos: BucketAccess;
  /** Browser apps on other origins may call it (RFC 6750 tokens never travel in cookies). */
  cors?: boolean;
  /** Lambda memory in MB; more memory also buys CPU (bcrypt, sharp). */
  memory?: number;
  timeoutSeconds?: number;
  /** Needs a native module that only has an x86_64 build in our bundle (sharp). */
  x86?: boolean;
}

export const routes: readonly Route[] = [
  {
    method: 'GET',
    path: '/v2/ServiceProviderConfigs',
    fn: 'scim-service-provider-configs',
    table: 'read',
    logos: 'none',
  },
  // Portal API (issue 4): session + CSRF in shared/http/portal.ts. Every route writes: reading the
  // session slides its expiry.
  { method: 'GET', path: '/api/session', fn: 'api-session-get', table: 'write', logos: 'none' },
  {
    method: 'POST',
    path: '/api/session',
    fn: 'api-session-create',
    table: 'write',
    logos: 'none',
    memory: 1024,
  },
  { method: 'DELETE', path: '/api/session', fn: 'api-session-delete', table: 'write', logos: 'none' },
  { method: 'PUT', path: '/api/session/acting', fn: 'api-session-acting', table: 'write', logos: 'none' },
  { method: 'POST', path: '/api/users', fn: 'api-users-create', table: 'write', logos: 'none', memory: 1024 },
  { method: 'GET', path: '/api/applications', fn: 'api-applications-list', table: 'write', logos: 'none' },
  { method: 'POST', path: '/api/applications', fn: 'api-applications-create', table: 'write', logos: 'none' },
  { method: 'GET', path: '/api/applications/{id}', fn: 'api-application-get', table: 'write', logos: 'none' },
  {
    method: 'PUT',
    path: '/api/applications/{id}',
    fn: 'api-application-update',
    table: 'write',
    logos: 'none',
  },
  {
    method: 'DELETE',
    path: '/api/applications/{id}',
    fn: 'api-application-delete',
    table: 'write',
    logos: 'none',
  },
  {
    method: 'POST',
    path: '/api/applications/{id}/secret',
    fn: 'api-application-secret',
    table: 'write',
    logos: 'none',
  },
  {
    method: 'POST',
    path: '/api/applications/{id}/logo',
    fn: 'api-application-logo',
    table: 'write',
    logos: 'write',
    memory: 1024,
    x86: true,
  },
  {
    method: 'POST',
    path: '/api/applications/{id}/roles',
    fn: 'api-roles-create',
    table: 'write',
    logos: 'none',
  },
  {
    method: 'DELETE',
    path: '/api/applications/{id}/roles/{roleId}',
    fn: 'api-role-delete',
    table: 'write',
    logos: 'none',
  },
  {
    method: 'POST',
    path: '/api/applications/{id}/permissions',
    fn: 'api-permissions-create',
    table: 'write',
    logos: 'none',
  },
  {
    method: 'DELETE',
    path: '/api/applications/{id}/permissions/{permissionId}',
    fn: 'api-permission-delete',
    table: 'write',
    logos: 'none',
  },
  {
    method: 'PUT',
    path: '/api/applications/{id}/roles/{roleId}/permissions/{permissionId}',
    fn: 'api-role-permission-set',
    table: 'write',
    logos: 'none',
  },
  {
    method: 'POST',
    path: '/api/applications/{id}/authorizations',
    fn: 'api-authorizations-create',
    table: 'write',
    logos: 'none',
  },
  {
    method: 'PUT',
    path: '/api/applications/{id}/authorizations/{kind}/{granteeId}',
    fn: 'api-authorization-update',
    table: 'write',
    logos: 'none',
  },
  {
    method: 'DELETE',
    path: '/api/applications/{id}/authorizations/{kind}/{granteeId}',
    fn: 'api-authorization-delete',
    table: 'write',
    logos: 'none',
  },
  { method: 'GET', path: '/api/organizations', fn: 'api-organizations-list', table: 'write', logos: 'none' },
  {
    method: 'POST',
    path: '/api/organizations',
    fn: 'api-organizations-create',
    table: 'write',
    logos: 'none',
  },
  {
    method: 'GET',
    path: '/api/organizations/{id}',
    fn: 'api-organization-get',
    table: 'write',
    logos: 'none',
  },
  {
    method: 'POST',
    path: '/api/organizations/{id}/members',
    fn: 'api-members-create',
    table: 'write',
    logos: 'none',
  },
  {
    method: 'PUT',
    path: '/api/organizations/{id}/members/{userId}',
    fn: 'api-member-update',
    table: 'write',
    logos: 'none',
  },
  {
    method: 'DELETE',
    path: '/api/organizations/{id}/members/{userId}',
    fn: 'api-member-delete',
    table: 'write',
    logos: 'none',
  },
  // OAuth 2.0 + Keyrock lookups (issue 3). CORS per route (shared/http/cors.ts); OPTIONS share one function.
  { method: 'GET', path: '/oauth2/authorize', fn: 'oauth2-authorize', table: 'write', logos: 'none' },
  {
    method: 'POST',
    path: '/oauth2/authorize',
    fn: 'oauth2-authorize-decision',
    table: 'write',
    logos: 'none',
  },
  {
    method: 'POST',
    path: '/oauth2/token',
    fn: 'oauth2-token',
    table: 'write',
    logos: 'none',
    cors: true,
    memory: 1024,
  },
  { method: 'POST', path: '/oauth2/revoke', fn: 'oauth2-revoke', table: 'write', logos: 'none', cors: true },
  { method: 'GET', path: '/user', fn: 'user-info', table: 'read', logos: 'none', cors: true },
  { method: 'GET', path: '/users/{id}', fn: 'users-get', table: 'read', logos: 'none', cors: true },
  {
    method: 'GET',
    path: '/applications.json',
    fn: 'applications-json',
    table: 'read',
    logos: 'none',
    cors: true,
  },
  {
    method: 'GET',
    path: '/.well-known/oauth-authorization-server',
    fn: 'oauth2-metadata',
    table: 'none',
    logos: 'none',
    cors: true,
  },
  {
    method: 'OPTIONS',
    path: '/oauth2/token',
    fn: 'cors-preflight',
    table: 'none',
    logos: 'none',
    cors: true,
  },
  {
    method: 'OPTIONS',
    path: '/oauth2/revoke',
    fn: 'cors-preflight',
    table: 'none',
    logos: 'none',
    cors: true,
  },
  { method: 'OPTIONS', path: '/user', fn: 'cors-preflight', table: 'none', logos: 'none', cors: true },
  { method: 'OPTIONS', path: '/users/{id}', fn: 'cors-preflight', table: 'none', logos: 'none', cors: true },
  {
    method: 'OPTIONS',
    path: '/applications.json',
    fn: 'cors-preflight',
    table: 'none',
    logos: 'none',
    cors: true,
  },
];
/** Splits a route path into literal segments and `{param}` segments once, for matching. */
export interface CompiledRoute extends Route {
  segments: { literal?: string; param?: string }[];
}

export function compileRoutes(list: readonly Route[] = routes): CompiledRoute[] {
  return list.map((route) => ({
    ...route,
    segments: route.path
      .split('/')
      .slice(1)
      .map((s) => (s.startsWith('{') && s.endsWith('}') ? { param: s.slice(1, -1) } : { literal: s })),
  }));
}

/** Finds the route for a method and path, with its path parameters (literal segments win). */
export function matchRoute(
  compiled: CompiledRoute[],
  method: string,
  path: string,
): { route: CompiledRoute; params: Record<string, string> } | { allowed: string[] } | undefined {
  const parts = path.split('/').slice(1);
  const allowed: string[] = [];
  let best: { route: CompiledRoute; params: Record<string, string>; literals: number } | undefined;
  for (const route of compiled) {
    if (route.segments.length !== parts.length) continue;
    const params: Record<string, string> = {};
    let literals = 0;
    let ok = true;
    for (let i = 0; i < parts.length && ok; i++) {
      const seg = route.segments[i]!;
      const part = parts[i]!;
      if (seg.literal !== undefined) {
        ok = seg.literal === part;
        literals++;
      } else if (part === '') ok = false;
      else {
        try {
          params[seg.param!] = decodeURIComponent(part);
        } catch {
          ok = false;
        }
      }
    }
    if (!ok) continue;
    if (route.method !== method) {
      allowed.push(route.method);
      continue;
    }
    if (!best || literals > best.literals) best = { route, params, literals };
  }
  if (best) return { route: best.route, params: best.params };
  return allowed.length > 0 ? { allowed } : undefined;
}
