import type { Route } from '../shared/routes.js';

/**
 * The API areas: each gets its own nested stack holding its route functions and API routes, so
 * no CloudFormation template nears the 500-resource limit as the route table grows
 * (docs/decisions.md, "Nested stacks per API area").
 */
export const AREAS = ['oauth', 'portal', 'portal-apps', 'keyrock', 'keyrock-apps'] as const;
export type Area = (typeof AREAS)[number];

/**
 * The area a route belongs to, by path: `/api/applications/**` and the rest of `/api/**` are the
 * portal's, `/v1/applications/**` and the rest of `/v1/**` (and its `/v3/**` aliases) are
 * Keyrock's, everything else (OAuth 2.0, OIDC discovery, SCIM `/v2/**`, the
 * Keyrock-compatible `/user`, `/users/**`, `/applications.json`, `/version`, CORS preflight) is
 * the OAuth area. Any new path lands in one of them, so any route table can be deployed.
 */
export function areaOf(route: Pick<Route, 'path'>): Area {
  const { path } = route;
  if (path === '/api/applications' || path.startsWith('/api/applications/')) return 'portal-apps';
  if (path === '/api' || path.startsWith('/api/')) return 'portal';
  if (path === '/v1/applications' || path.startsWith('/v1/applications/')) return 'keyrock-apps';
  // /v3 is Keyrock's alias of its /v1 API (the PEP proxy's sign-in, shared/routes.ts).
  if (path === '/v1' || path.startsWith('/v1/') || path.startsWith('/v3/')) return 'keyrock';
  return 'oauth';
}

/**
 * The routes per area, keyed by the area of each route's function: a function serves all its
 * routes from one nested stack, the area of the first route naming it (the route table's order).
 */
export function routesByArea(routes: readonly Route[]): Map<Area, Route[]> {
  const fnArea = new Map<string, Area>();
  for (const route of routes) if (!fnArea.has(route.fn)) fnArea.set(route.fn, areaOf(route));
  const out = new Map<Area, Route[]>();
  for (const area of AREAS) {
    const inArea = routes.filter((route) => fnArea.get(route.fn) === area);
    if (inArea.length > 0) out.set(area, inArea);
  }
  return out;
}

/** `keyrock-apps` → `KeyrockAppsRoutes` (the nested stack's construct id). */
export function areaStackId(area: Area): string {
  return `${area
    .split('-')
    .map((part) => part[0]!.toUpperCase() + part.slice(1))
    .join('')}Routes`;
}
