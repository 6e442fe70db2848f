/**
 * The route table: every endpoint, the function that serves it and what that function may touch.
 * The local server builds its router from this list; the CDK stack builds the API, one Lambda per
 * entry and each function's IAM grants from it. Nothing lists routes twice.
 */
export type TableAccess = 'none' | 'read' | 'write';
export type BucketAccess = 'none' | 'read' | 'write';

export interface Route {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
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
