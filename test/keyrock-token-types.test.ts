import { randomUUID } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { decodeJwt, jwtVerify, SignJWT } from 'jose';
import * as oauth from 'oauth4webapi';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { registerApplication } from '../shared/domain/applications.js';
import { setJwtSecret } from '../shared/domain/jwt-secrets.js';
import { authorize } from '../shared/store/authorizations.js';
import { db } from '../shared/store/db.js';
import { keys } from '../shared/store/keys.js';
import { countDynamoDb } from '../shared/store/metrics.js';
import { createOrganization } from '../shared/store/organizations.js';
import { roleCatalogue } from '../shared/store/roles.js';
import type { User } from '../shared/store/users.js';
import { expectKeyrockError, keyrockClient } from './support/keyrock.js';
import { discover, insecure, PASSWORD } from './support/oauth.js';
import { startService, type TestService } from './support/service.js';

/**
 * Keyrock's token types through the local server: `jwt` tokens (HS256 with the application's
 * `jwt_secret`, Keyrock's models/model_oauth_server.js generateJwtToken) asked for with
 * `scope=jwt` and checked by GET /user?app_id= (controllers/oauth2/oauth2.js authenticate_jwt),
 * and `permanent` tokens, asked for with `scope=permanent`, that never expire but can be revoked.
 * Token requests go through oauth4webapi, as a real client sends them.
 */
let service: TestService;
const { call, signIn, register, roleWithPermission } = keyrockClient(() => service);
let bob: User;
let carol: User;
let bobToken: string;
let as: oauth.AuthorizationServer;

interface V1App {
  id: string;
  secret: string;
  jwt_secret: string | null;
  token_types: string[];
}

async function createApp(name: string, tokenTypes?: string[]): Promise<V1App> {
  const res = await call('POST', '/v1/applications', {
    token: bobToken,
    json: {
      application: {
        name,
        redirect_uri: 'http://localhost/login',
        grant_type: ['password', 'client_credentials', 'refresh_token'],
        ...(tokenTypes ? { token_types: tokenTypes } : {}),
      },
    },
  });
  expect(res.status).toBe(201);
  return res.body.application as V1App;
}

const clientOf = (app: V1App): oauth.Client => ({ client_id: app.id });

/** carol's password grant at `app` with `scope`, through oauth4webapi. */
async function passwordTokens(app: V1App, scope?: string) {
  const res = await oauth.genericTokenEndpointRequest(
    as,
    clientOf(app),
    oauth.ClientSecretBasic(app.secret),
    'password',
    { username: carol.email, password: PASSWORD, ...(scope ? { scope } : {}) },
    insecure,
  );
  return oauth.processGenericTokenEndpointResponse(as, clientOf(app), res);
}

/** A token request expected to fail with an OAuth error code (RFC 6749 §5.2). */
async function refusedWith(app: V1App, scope: string): Promise<string> {
  try {
    await passwordTokens(app, scope);
  } catch (error) {
    if (error instanceof oauth.ResponseBodyError) {
      expect(error.status).toBe(400);
      return error.error;
    }
    throw error;
  }
  throw new Error(`scope ${scope} was accepted`);
}

const user = (query: string, headers: Record<string, string> = {}) =>
  fetch(`${service.url}/user?${query}`, { headers: { accept: 'application/json', ...headers } });

const jwtKey = (secret: string) => new TextEncoder().encode(secret);

let guarded: V1App;
let plain: V1App;

beforeAll(async () => {
  service = await startService({
    IDM_AT_REST_KEY_FILE: join(tmpdir(), `gatehouse-at-rest-${randomUUID()}`),
    // The shortest lifetime config allows: permanent tokens are seen outliving it.
    IDM_ACCESS_TOKEN_TTL: '60',
  });
  bob = await register('bob-token-types@test.com', 'bob');
  carol = await register('carol-token-types@test.com', 'carol');
  bobToken = await signIn(bob.email);
  as = await discover(service.url);
  [guarded, plain] = await Promise.all([createApp('guarded', ['jwt', 'permanent']), createApp('plain')]);
  const roleId = await roleWithPermission(bobToken, guarded.id, 'Clerk', {
    name: 'read orders',
    action: 'GET',
    resource: '/orders',
  });
  const put = (path: string) => call('PUT', path, { token: bobToken, type: 'application/json' });
  expect((await put(`/v1/applications/${guarded.id}/users/${carol.id}/roles/${roleId}`)).status).toBe(201);
});
afterAll(() => service.close());

describe('token_types and jwt_secret through /v1', () => {
  it('creates an application with Keyrock’s token types and shows its secret to its Provider', async () => {
    expect(guarded.token_types).toEqual(['jwt', 'permanent', 'bearer']);
    expect(guarded.jwt_secret).toMatch(/^[0-9a-f]{64}$/);
    expect(plain.token_types).toEqual(['bearer']);
    expect(plain.jwt_secret).toBeNull();
    const read = await call('GET', `/v1/applications/${guarded.id}`, { token: bobToken });
    expect(read.status).toBe(200);
    expect(read.body.application).toMatchObject({
      token_types: ['jwt', 'permanent', 'bearer'],
      jwt_secret: guarded.jwt_secret,
    });
    // Stored sealed on both items: the table holds no usable secret.
    for (const key of [keys.client(guarded.id)]) {
      const item = (await service.db.doc.get({ TableName: service.db.table, Key: key })).Item!;
      expect(item.jwtSecret).toMatch(/^v1\./);
      expect(JSON.stringify(item)).not.toContain(guarded.jwt_secret);
    }
  });

  it('refuses a token type Keyrock does not know (400), and hides the secret from a Purchaser', async () => {
    expectKeyrockError(
      await call('POST', '/v1/applications', {
        token: bobToken,
        json: {
          application: { name: 'x', redirect_uri: 'http://localhost/x', token_types: ['bearer', 'jwt'] },
        },
      }),
      400,
      'Invalid token type in body request',
    );
    const dave = await register('dave-token-types@test.com', 'dave');
    const daveToken = await signIn(dave.email);
    const put = await call('PUT', `/v1/applications/${guarded.id}/users/${dave.id}/roles/purchaser`, {
      token: bobToken,
      type: 'application/json',
    });
    expect(put.status).toBe(201);
    const read = await call('GET', `/v1/applications/${guarded.id}`, { token: daveToken });
    expect(read.status).toBe(200);
    expect(read.body.application).toMatchObject({
      token_types: ['jwt', 'permanent', 'bearer'],
      jwt_secret: null,
    });
  });

  it('keeps the secret while jwt stays, drops it without jwt, and makes a new one when jwt returns', async () => {
    const app = await createApp('switching', ['jwt']);
    const patch = (types: string[]) =>
      call('PATCH', `/v1/applications/${app.id}`, {
        token: bobToken,
        json: { application: { token_types: types } },
      });
    const secretNow = async () =>
      (await call('GET', `/v1/applications/${app.id}`, { token: bobToken })).body.application as V1App;
    expect((await patch(['jwt', 'permanent'])).status).toBe(200);
    expect((await secretNow()).jwt_secret).toBe(app.jwt_secret);
    const token = (await passwordTokens(app, 'jwt')).access_token;
    expect((await user(`access_token=${token}&app_id=${app.id}`)).status).toBe(200);
    const dropped = await patch(['permanent']);
    expect(dropped.body).toEqual({ values_updated: { token_types: ['permanent', 'bearer'] } });
    expect((await secretNow()).jwt_secret).toBeNull();
    // Its jwt tokens no longer verify: the application has no jwt type, hence no secret.
    const refused = await user(`access_token=${token}&app_id=${app.id}`);
    expect(refused.status).toBe(401);
    expect(await refused.json()).toBe('Invalid token: access token is invalid');
    expect(await refusedWith(app, 'jwt')).toBe('invalid_scope');
    expect((await patch(['jwt'])).status).toBe(200);
    const again = (await secretNow()).jwt_secret;
    expect(again).toMatch(/^[0-9a-f]{64}$/);
    expect(again).not.toBe(app.jwt_secret);
  });
});

describe('jwt tokens (scope=jwt)', () => {
  it('issues an RFC 6749 token response whose access token is an HS256 JWT of /user’s body', async () => {
    const tokens = await passwordTokens(guarded, 'jwt');
    expect(tokens.token_type).toBe('bearer');
    expect(tokens.expires_in).toBe(60);
    expect(tokens.scope).toBe('jwt');
    expect(tokens.refresh_token).toEqual(expect.any(String));
    const { payload, protectedHeader } = await jwtVerify(tokens.access_token, jwtKey(guarded.jwt_secret!), {
      algorithms: ['HS256'],
    });
    expect(protectedHeader.alg).toBe('HS256');
    expect(payload).toMatchObject({
      id: carol.id,
      sub: carol.id,
      type: 'user',
      username: 'carol',
      email: carol.email,
      app_id: guarded.id,
      trusted_apps: [],
      roles: [{ name: 'Clerk' }],
      organizations: [],
    });
    expect(payload.exp! - payload.iat!).toBe(60);
    // A refresh keeps the type: another JWT.
    const refreshed = await oauth.processRefreshTokenResponse(
      as,
      clientOf(guarded),
      await oauth.refreshTokenGrantRequest(
        as,
        clientOf(guarded),
        oauth.ClientSecretBasic(guarded.secret),
        tokens.refresh_token!,
        insecure,
      ),
    );
    expect(decodeJwt(refreshed.access_token).type).toBe('user');
  });

  it('GET /user?app_id= checks it with the secret and decides from the roles: Permit and Deny', async () => {
    const jwt = (await passwordTokens(guarded, 'jwt')).access_token;
    const permit = await user(`access_token=${jwt}&app_id=${guarded.id}&action=GET&resource=/orders`);
    expect(permit.status).toBe(200);
    expect(await permit.json()).toEqual({
      id: carol.id,
      sub: carol.id,
      displayName: 'carol',
      username: 'carol',
      email: carol.email,
      roles: [{ id: expect.any(Number), name: 'Clerk' }],
      organizations: [],
      app_id: guarded.id,
      trusted_apps: [],
      authorization_decision: 'Permit',
    });
    const deny = await user(`app_id=${guarded.id}&action=DELETE&resource=/orders`, {
      authorization: `Bearer ${jwt}`,
    });
    expect(deny.status).toBe(200);
    expect(((await deny.json()) as { authorization_decision: string }).authorization_decision).toBe('Deny');
  });

  it('a client’s own jwt token answers with the application only', async () => {
    const res = await oauth.clientCredentialsGrantRequest(
      as,
      clientOf(guarded),
      oauth.ClientSecretBasic(guarded.secret),
      { scope: 'jwt' },
      insecure,
    );
    const tokens = await oauth.processClientCredentialsResponse(as, clientOf(guarded), res);
    expect(decodeJwt(tokens.access_token)).toMatchObject({ app_id: guarded.id });
    const answer = await user(`access_token=${tokens.access_token}&app_id=${guarded.id}`);
    expect(answer.status).toBe(200);
    expect(await answer.json()).toEqual({ app_id: guarded.id, trusted_apps: [] });
  });

  it('an IoT agent’s jwt token names the agent, as its opaque one does', async () => {
    const created = await call('POST', `/v1/applications/${guarded.id}/iot_agents`, {
      token: bobToken,
      type: 'application/json',
    });
    expect(created.status).toBe(201);
    const agent = created.body.iot_agent as { id: string; password: string };
    const res = await oauth.genericTokenEndpointRequest(
      as,
      clientOf(guarded),
      oauth.ClientSecretBasic(guarded.secret),
      'password',
      { username: agent.id, password: agent.password, scope: 'jwt' },
      insecure,
    );
    const tokens = await oauth.processGenericTokenEndpointResponse(as, clientOf(guarded), res);
    expect(decodeJwt(tokens.access_token)).toMatchObject({ id: agent.id, type: 'iot', app_id: guarded.id });
    const answer = await user(
      `access_token=${tokens.access_token}&app_id=${guarded.id}&action=GET&resource=/orders`,
    );
    expect(answer.status).toBe(200);
    expect(await answer.json()).toEqual({
      id: agent.id,
      type: 'iot',
      displayName: '',
      roles: [],
      app_id: guarded.id,
      trusted_apps: [],
      authorization_decision: 'Deny',
    });
  });

  it('refuses a tampered token, one signed with another secret, an expired one, and the wrong app_id', async () => {
    const jwt = (await passwordTokens(guarded, 'jwt')).access_token;
    const [header, payload, signature] = jwt.split('.');
    const claims = JSON.parse(Buffer.from(payload!, 'base64url').toString());
    const forged = Buffer.from(JSON.stringify({ ...claims, roles: [{ id: 1, name: 'Admin' }] })).toString(
      'base64url',
    );
    const resign = (extra: Record<string, unknown>, secret: string) =>
      new SignJWT({ ...claims, ...extra }).setProtectedHeader({ alg: 'HS256' }).sign(jwtKey(secret));
    const other = await createApp('other jwt app', ['jwt']);
    const cases = [
      `${header}.${forged}.${signature}`,
      await resign({}, other.jwt_secret!),
      await resign({ exp: Math.floor(Date.now() / 1000) - 10 }, guarded.jwt_secret!),
    ];
    for (const token of cases) {
      const res = await user(`access_token=${token}&app_id=${guarded.id}&action=GET&resource=/orders`);
      expect(res.status).toBe(401);
      expect(await res.json()).toBe('Invalid token: access token is invalid');
    }
    // The right token presented for another application: its secret does not verify it.
    for (const appId of [other.id, plain.id]) {
      const res = await user(`access_token=${jwt}&app_id=${appId}`);
      expect(res.status).toBe(401);
    }
    const unknown = await user(`access_token=${jwt}&app_id=no-such-app`);
    expect(unknown.status).toBe(401);
    expect(await unknown.json()).toEqual({ message: 'Unauthorized', code: 401, title: 'Unauthorized' });
  });

  it('answers invalid_scope for a type the application does not allow and for contradictions', async () => {
    expect(await refusedWith(plain, 'jwt')).toBe('invalid_scope');
    expect(await refusedWith(plain, 'permanent')).toBe('invalid_scope');
    expect(await refusedWith(guarded, 'bearer jwt')).toBe('invalid_scope');
    expect(await refusedWith(guarded, 'jwt permanent')).toBe('invalid_scope');
  });

  it('GET /user with a jwt token and a decision costs one DynamoDB round trip, also for a member of an organization', async () => {
    // An organization holding a role in the application, with carol in it.
    const catalogue = await roleCatalogue(service.db, (await appIdOf(guarded.id))!);
    const clerk = catalogue.roles.find((r) => r.name === 'Clerk')!;
    const team = await createOrganization(service.db, {
      name: 'Team',
      description: '',
      ownerUserId: carol.id,
    });
    await authorize(service.db, clerk.appId, { kind: 'org', id: team.id }, clerk.id);
    const jwt = (await passwordTokens(guarded, 'jwt')).access_token;
    const counter = countDynamoDb(db().doc);
    try {
      const res = await user(`access_token=${jwt}&app_id=${guarded.id}&action=GET&resource=/orders`);
      expect(res.status).toBe(200);
      expect(await res.json()).toMatchObject({
        organizations: [{ id: team.id, name: 'Team', roles: [{ name: 'Clerk' }] }],
        authorization_decision: 'Permit',
      });
      const work = counter.read();
      expect(work.roundTrips).toBe(1);
      expect(work.byCommand.Scan).toBeUndefined();
    } finally {
      counter.stop();
    }
  });
});

async function appIdOf(clientId: string): Promise<number | undefined> {
  const { getClient } = await import('../shared/store/applications.js');
  return (await getClient(service.db, clientId))?.appId;
}

describe('a jwt_secret moved from Keyrock', () => {
  it('is kept as it is: tokens Keyrock signed with it verify, and Gatehouse signs with it', async () => {
    const app = await createApp('moved', ['jwt']);
    const keyrockSecret = 'a1b2c3d4e5f60718'; // Keyrock's form: 16 hex characters
    await setJwtSecret(service.db, (await appIdOf(app.id))!, keyrockSecret);
    const read = await call('GET', `/v1/applications/${app.id}`, { token: bobToken });
    expect((read.body.application as V1App).jwt_secret).toBe(keyrockSecret);
    const issued = (await passwordTokens(app, 'jwt')).access_token;
    await jwtVerify(issued, jwtKey(keyrockSecret), { algorithms: ['HS256'] });
    // A token Keyrock itself issued before the move (no `gatehouse` ids claim) is refused, as
    // Keyrock's opaque tokens are: tokens are not moved, clients ask again.
    const keyrockIssued = await new SignJWT({ id: carol.id, app_id: app.id, type: 'user' })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setIssuedAt()
      .setExpirationTime('1h')
      .sign(jwtKey(keyrockSecret));
    expect((await user(`access_token=${keyrockIssued}&app_id=${app.id}`)).status).toBe(401);
  });
});

describe('permanent tokens (scope=permanent)', () => {
  it('have no expires_in and no refresh token, outlive the lifetime, and stop when revoked', async () => {
    const permanent = await passwordTokens(guarded, 'permanent');
    expect(permanent.expires_in).toBeUndefined();
    expect(permanent.refresh_token).toBeUndefined();
    const ordinary = (await passwordTokens(guarded)).access_token;
    const query = (token: string) => `access_token=${token}&app_id=${guarded.id}&action=GET&resource=/orders`;
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      vi.setSystemTime(Date.now() + 2 * 3600 * 1000);
      expect((await user(query(ordinary))).status).toBe(401);
      const still = await user(query(permanent.access_token));
      expect(still.status).toBe(200);
      expect(((await still.json()) as { authorization_decision: string }).authorization_decision).toBe(
        'Permit',
      );
    } finally {
      vi.useRealTimers();
    }
    const revoked = await oauth.revocationRequest(
      as,
      clientOf(guarded),
      oauth.ClientSecretBasic(guarded.secret),
      permanent.access_token,
      insecure,
    );
    await oauth.processRevocationResponse(revoked);
    expect((await user(query(permanent.access_token))).status).toBe(401);
  });
});

describe('the portal API', () => {
  it('sets the token types and shows the secret to the Provider', async () => {
    const { signedIn } = await import('./support/oauth.js');
    const { app } = await registerApplication(
      service.db,
      { kind: 'user', userId: bob.id, actorId: bob.actorId },
      {
        name: 'Portal app',
        description: 'd',
        url: 'http://localhost:1',
        callbackUrl: 'http://localhost:1/cb',
      },
    );
    const browser = await signedIn(service.db, bob.id);
    const headers = {
      cookie: browser.cookie,
      'x-csrf-token': browser.csrf,
      'content-type': 'application/json',
    };
    const put = await fetch(`${service.url}/api/applications/${app.id}`, {
      method: 'PUT',
      headers,
      body: JSON.stringify({
        name: app.name,
        description: 'd',
        url: app.url,
        callbackUrl: app.callbackUrl,
        tokenTypes: ['jwt'],
      }),
    });
    expect(put.status).toBe(200);
    expect(((await put.json()) as { application: { tokenTypes: string[] } }).application.tokenTypes).toEqual([
      'jwt',
    ]);
    const detail = (await (await fetch(`${service.url}/api/applications/${app.id}`, { headers })).json()) as {
      application: { jwtSecret?: string; accessTokenFormat: string };
    };
    expect(detail.application.jwtSecret).toMatch(/^[0-9a-f]{64}$/);
    expect(detail.application.accessTokenFormat).toBe('opaque');
    const bad = await fetch(`${service.url}/api/applications/${app.id}`, {
      method: 'PUT',
      headers,
      body: JSON.stringify({
        name: app.name,
        description: 'd',
        url: app.url,
        callbackUrl: app.callbackUrl,
        tokenTypes: ['magic'],
      }),
    });
    expect(bad.status).toBe(400);
  });
});
