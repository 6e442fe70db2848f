/**
 * The requests the benchmark measures, one per endpoint and case that matters. Each builds
 * its request from the fixture; single-use credentials (codes, refresh tokens) are minted fresh
 * per request when `fresh` is set, or reused when the store is a mock that never consumes them.
 * Each also says what it must answer (status, and the body's shape): bench/answers.ts stops the
 * run on the first measured answer that differs.
 */
import type { Db } from '../shared/store/db.js';
import type { Shape } from './answers.js';
import { CALLBACK, type Fixture, freshCode, freshRefreshToken, PASSWORD } from './fixtures.js';
import { type BenchRequest, form } from './invoke.js';
import {
  applicationOnly,
  jwtTokenResponse,
  listsApplication,
  redirectWithCode,
  scimConfig,
  tokenResponse,
  userWithRoles,
} from './shapes.js';

export interface ScenarioContext {
  db: Db;
  f: Fixture;
  /** Single-use values: mint a new one (real table) or use `reusable` (mock). */
  fresh: boolean;
  reusable: { code: string; refreshToken: string };
}

export interface Scenario {
  id: string;
  label: string;
  /** Budget: at most this many sequential DynamoDB round trips. */
  maxRoundTrips?: number;
  expectStatus: number;
  /** What the body must look like, from the fixture it was asked about. */
  shape?: (f: Fixture) => Shape;
  request(ctx: ScenarioContext): Promise<BenchRequest>;
}

const userToken = tokenResponse(true);

const tokenRequest = (ctx: ScenarioContext, fields: Record<string, string>): BenchRequest => ({
  method: 'POST',
  url: '/oauth2/token',
  headers: { authorization: ctx.f.authorization, 'content-type': 'application/x-www-form-urlencoded' },
  body: form(fields),
});

const get = (url: string, headers?: Record<string, string>): BenchRequest => ({
  method: 'GET',
  url,
  ...(headers ? { headers } : {}),
});

export const TOKEN_SCENARIOS: Scenario[] = [
  {
    id: 'token-authorization_code',
    label: 'POST /oauth2/token authorization_code',
    maxRoundTrips: 3,
    expectStatus: 200,
    shape: () => userToken,
    request: async (ctx) =>
      tokenRequest(ctx, {
        grant_type: 'authorization_code',
        code: ctx.fresh ? await freshCode(ctx.db, ctx.f) : ctx.reusable.code,
        redirect_uri: CALLBACK,
      }),
  },
  {
    id: 'token-password',
    label: 'POST /oauth2/token password',
    maxRoundTrips: 3,
    expectStatus: 200,
    shape: () => userToken,
    request: async (ctx) =>
      tokenRequest(ctx, { grant_type: 'password', username: ctx.f.users.orgs0.email, password: PASSWORD }),
  },
  {
    id: 'token-client_credentials',
    label: 'POST /oauth2/token client_credentials',
    maxRoundTrips: 3,
    expectStatus: 200,
    shape: () => tokenResponse(false),
    request: async (ctx) => tokenRequest(ctx, { grant_type: 'client_credentials' }),
  },
  {
    // RFC 9068: the same grant for an application with JWT access tokens: one read, a signature, no write.
    id: 'token-client_credentials-jwt',
    label: 'POST /oauth2/token client_credentials (JWT access token)',
    maxRoundTrips: 3,
    expectStatus: 200,
    shape: () => jwtTokenResponse,
    request: async (ctx) => ({
      ...tokenRequest(ctx, { grant_type: 'client_credentials' }),
      headers: { authorization: ctx.f.jwtAuthorization, 'content-type': 'application/x-www-form-urlencoded' },
    }),
  },
  {
    id: 'token-refresh_token',
    label: 'POST /oauth2/token refresh_token',
    maxRoundTrips: 3,
    expectStatus: 200,
    shape: () => userToken,
    request: async (ctx) =>
      tokenRequest(ctx, {
        grant_type: 'refresh_token',
        refresh_token: ctx.fresh ? await freshRefreshToken(ctx.db, ctx.f) : ctx.reusable.refreshToken,
      }),
  },
];

const userUrl = (token: string, extra = '') => `/user?access_token=${encodeURIComponent(token)}${extra}`;

export const LOOKUP_SCENARIOS: Scenario[] = [
  {
    id: 'user-orgs0',
    label: 'GET /user (user token, 0 organizations)',
    maxRoundTrips: 3,
    expectStatus: 200,
    shape: (f) => userWithRoles({ id: f.users.orgs0.user.id, organizations: 0 }),
    request: async ({ f }) => get(userUrl(f.users.orgs0.accessToken)),
  },
  {
    id: 'user-orgs1',
    label: 'GET /user (user token, 1 organization)',
    maxRoundTrips: 3,
    expectStatus: 200,
    shape: (f) => userWithRoles({ id: f.users.orgs1.user.id, organizations: 1 }),
    request: async ({ f }) => get(userUrl(f.users.orgs1.accessToken)),
  },
  {
    id: 'user-orgs20',
    label: 'GET /user (user token, 20 organizations)',
    maxRoundTrips: 3,
    expectStatus: 200,
    shape: (f) => userWithRoles({ id: f.users.orgs20.user.id, organizations: 20 }),
    request: async ({ f }) => get(userUrl(f.users.orgs20.accessToken)),
  },
  {
    id: 'user-client_credentials',
    label: 'GET /user (client-credentials token)',
    maxRoundTrips: 3,
    expectStatus: 200,
    shape: (f) => applicationOnly(f.client.clientId),
    request: async ({ f }) => get(userUrl(f.clientCredentialsToken)),
  },
  {
    id: 'user-decision',
    label: 'GET /user with a permission decision',
    maxRoundTrips: 3,
    expectStatus: 200,
    shape: (f) => userWithRoles({ id: f.users.orgs1.user.id, organizations: 1, decision: 'Permit' }),
    request: async ({ f }) =>
      get(
        userUrl(
          f.users.orgs1.accessToken,
          `&action=${f.permission.verb}&resource=${encodeURIComponent(f.permission.path)}&app_id=${f.client.clientId}`,
        ),
      ),
  },
  {
    // Keyrock's `jwt` token type, as a PEP proxy asks: the signature (the application's secret,
    // read with its client item) replaces the token's read, so the user's roles come in the same
    // round trip (docs/decisions.md).
    id: 'user-decision-jwt',
    label: 'GET /user with a decision, Keyrock jwt token',
    maxRoundTrips: 1,
    expectStatus: 200,
    shape: (f) => userWithRoles({ id: f.users.orgs1.user.id, organizations: 1, decision: 'Permit' }),
    request: async ({ f }) =>
      get(
        userUrl(
          f.keyrockJwt,
          `&action=${f.permission.verb}&resource=${encodeURIComponent(f.permission.path)}&app_id=${f.client.clientId}`,
        ),
      ),
  },
  {
    id: 'users-id',
    label: 'GET /users/:id',
    expectStatus: 200,
    shape: (f) => userWithRoles({ id: f.users.orgs1.user.id, organizations: 1 }),
    request: async ({ f }) =>
      get(`/users/${f.users.orgs1.user.id}?access_token=${encodeURIComponent(f.users.orgs0.accessToken)}`),
  },
  {
    id: 'applications-json',
    label: 'GET /applications.json (actor = the user)',
    expectStatus: 200,
    shape: (f) => listsApplication(f.appId),
    request: async ({ f }) =>
      get(
        `/applications.json?actor_id=${f.users.orgs1.user.actorId}&access_token=${encodeURIComponent(
          f.users.orgs1.accessToken,
        )}`,
      ),
  },
  {
    id: 'scim-config',
    label: 'GET /v2/ServiceProviderConfigs',
    expectStatus: 200,
    shape: () => scimConfig,
    request: async () => get('/v2/ServiceProviderConfigs'),
  },
  {
    id: 'authorize-code',
    label: 'GET /oauth2/authorize (code; signed in, consent given)',
    expectStatus: 302,
    shape: () => redirectWithCode(CALLBACK, 'bench'),
    request: async ({ f }) =>
      get(
        `/oauth2/authorize?response_type=code&client_id=${f.client.clientId}&redirect_uri=${encodeURIComponent(
          CALLBACK,
        )}&state=bench`,
        { cookie: f.sessionCookie, accept: 'text/html' },
      ),
  },
];

export const SCENARIOS: Scenario[] = [...TOKEN_SCENARIOS, ...LOOKUP_SCENARIOS];

export const user50Scenario: Scenario = {
  id: 'user-orgs50',
  label: 'GET /user (user token, 50 organizations)',
  maxRoundTrips: 3,
  expectStatus: 200,
  shape: (f) => userWithRoles({ id: f.users.orgs50!.user.id, organizations: 50 }),
  request: async ({ f }) => get(userUrl(f.users.orgs50!.accessToken)),
};
