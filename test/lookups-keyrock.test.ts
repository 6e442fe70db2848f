import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomToken, sha256 } from '../shared/crypto.js';
import { authorize } from '../shared/store/authorizations.js';
import { createOrganization, type Organization, setMember } from '../shared/store/organizations.js';
import { createPermission, createRole, setRolePermission } from '../shared/store/roles.js';
import { accessTokenValue, putTokens, tokenHint } from '../shared/store/tokens.js';
import type { User } from '../shared/store/users.js';
import { nowSeconds } from '../shared/time.js';
import { basic, newApp, newUser, PASSWORD, postForm, type Registered } from './support/oauth.js';
import { startService, type TestService } from './support/service.js';

/**
 * The Keyrock lookups: GET /user (direct and organization roles, permission decisions),
 * GET /users/:id visibility and GET /applications.json rules.
 */
let service: TestService;
let alice: User; // owns the app (Provider)
let bob: User; // Viewer directly, member of Acme (Editor) and of Idle (no role)
let carol: User; // nothing to do with the app
let dave: User; // only through Acme
let erin: User; // owns the organizations
let reg: Registered;
let unrelated: Registered;
let acme: Organization;
let idle: Organization;
let editor: number;
let viewer: number;
let postOrders: number;
let bobToken: string;

async function token(user: User, app: Registered = reg): Promise<string> {
  const res = await postForm(
    `${service.url}/oauth2/token`,
    { grant_type: 'password', username: user.email, password: PASSWORD },
    { authorization: basic(app.app.clientId, app.secret) },
  );
  return ((await res.json()) as { access_token: string }).access_token;
}

beforeAll(async () => {
  service = await startService();
  const db = service.db;
  [alice, bob, carol, dave] = (await Promise.all(
    ['alice', 'bob', 'carol', 'dave'].map((n) => newUser(db, n)),
  )) as [User, User, User, User];
  reg = await newApp(db, alice.id, { name: 'Orders' });
  unrelated = await newApp(db, carol.id, { name: 'Unrelated' });
  erin = await newUser(db, 'erin');
  acme = await createOrganization(db, { name: 'Acme', description: '', ownerUserId: erin.id });
  idle = await createOrganization(db, { name: 'Idle', description: '', ownerUserId: erin.id });
  await setMember(db, acme.id, bob.id, 'member');
  await setMember(db, acme.id, dave.id, 'member');
  await setMember(db, idle.id, bob.id, 'member');
  editor = (await createRole(db, reg.app.id, 'Editor')).id;
  viewer = (await createRole(db, reg.app.id, 'Viewer')).id;
  const getOrders = (
    await createPermission(db, reg.app.id, { name: 'read', description: '', verb: 'GET', path: '/orders' })
  ).id;
  postOrders = (
    await createPermission(db, reg.app.id, { name: 'write', description: '', verb: 'POST', path: '/orders' })
  ).id;
  await createPermission(db, reg.app.id, { name: 'admin', description: '', verb: 'GET', path: '/admin' });
  await setRolePermission(db, reg.app.id, editor, getOrders, true);
  await setRolePermission(db, reg.app.id, editor, postOrders, true);
  await setRolePermission(db, reg.app.id, viewer, getOrders, true);
  await authorize(db, reg.app.id, { kind: 'user', id: bob.id }, viewer);
  await authorize(db, reg.app.id, { kind: 'org', id: acme.id }, editor);
  bobToken = await token(bob);
});
afterAll(() => service.close());

const get = (path: string, headers: Record<string, string> = {}) =>
  fetch(`${service.url}${path}`, { headers });

describe('GET /user', () => {
  it('lists direct roles and every organization with the roles it holds in the token’s app', async () => {
    const res = await get(`/user?access_token=${bobToken}`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({
      id: bob.id,
      displayName: bob.displayName,
      email: bob.email,
      roles: [{ id: viewer, name: 'Viewer' }],
      organizations: [
        { id: acme.id, name: 'Acme', roles: [{ id: editor, name: 'Editor' }] },
        { id: idle.id, name: 'Idle', roles: [] },
      ],
      // Keyrock 8's fields (models/model_oauth_server.js): no app_id asked, so no trusted ones.
      sub: bob.id,
      username: bob.displayName,
      app_id: reg.app.clientId,
      trusted_apps: [],
    });
  });

  it('accepts the token as a Bearer header; both ways at once is 400 invalid_request', async () => {
    expect((await get('/user', { authorization: `Bearer ${bobToken}` })).status).toBe(200);
    const both = await get(`/user?access_token=${bobToken}`, { authorization: `Bearer ${bobToken}` });
    expect(both.status).toBe(400);
    expect(((await both.json()) as { error: string }).error).toBe('invalid_request');
  });

  it('answers 401 with the RFC 6750 challenges', async () => {
    const none = await get('/user');
    expect(none.status).toBe(401);
    expect(none.headers.get('www-authenticate')).toBe('Bearer realm="gatehouse"');
    const unknown = await get('/user?access_token=not-a-token');
    expect(unknown.status).toBe(401);
    expect(unknown.headers.get('www-authenticate')).toBe('Bearer realm="gatehouse", error="invalid_token"');
    expect(await unknown.json()).toMatchObject({ error: 'invalid_token' });
  });

  it('refuses an expired access token whose item still exists (TTL is lazy)', async () => {
    await putTokens(service.db, [
      {
        digest: sha256('expired-access-token'),
        kind: 'access',
        clientId: reg.app.clientId,
        appId: reg.app.id,
        userId: bob.id,
        grantId: 'g-expired',
        expiresAt: nowSeconds() - 1,
      },
    ]);
    const res = await get('/user?access_token=expired-access-token');
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toContain('error="invalid_token"');
  });

  it('refuses an expired token of the current format, which is read together with the user', async () => {
    const value = accessTokenValue(bob.id, reg.app.id, randomToken(32));
    await putTokens(service.db, [
      {
        digest: sha256(value),
        kind: 'access',
        clientId: reg.app.clientId,
        appId: reg.app.id,
        userId: bob.id,
        grantId: 'g-expired-hinted',
        expiresAt: nowSeconds() - 1,
      },
    ]);
    const res = await get(`/user?access_token=${encodeURIComponent(value)}`);
    expect(res.status).toBe(401);
    expect(await res.json()).toMatchObject({ error: 'invalid_token' });
  });

  it('finds no token when the user or application named in its value is changed', async () => {
    expect(tokenHint(bobToken)).toEqual({ userId: bob.id, appId: reg.app.id });
    const [, app, random] = bobToken.split('.');
    const asAlice = `${alice.id.toString(36)}.${app}.${random}`;
    const res = await get(`/user?access_token=${asAlice}`);
    expect(res.status).toBe(401);
    const other = await get(`/users/${bob.id}?access_token=${asAlice}`);
    expect(other.status).toBe(401);
    expect((await get(`/user?access_token=${bobToken}`)).status).toBe(200);
  });

  it('decides permissions: Permit through a direct or an organization role, exact verb and path', async () => {
    const decision = async (query: string) => {
      const res = await get(`/user?access_token=${bobToken}&${query}`);
      expect(res.status).toBe(200);
      return ((await res.json()) as { authorization_decision: string }).authorization_decision;
    };
    expect(await decision('action=GET&resource=/orders')).toBe('Permit'); // Viewer, direct
    expect(await decision('action=POST&resource=/orders')).toBe('Permit'); // Editor, through Acme
    expect(await decision(`action=POST&resource=/orders&app_id=${reg.app.clientId}`)).toBe('Permit');
    expect(await decision('action=GET&resource=/admin')).toBe('Deny'); // nobody has it switched on
    expect(await decision('action=GET&resource=/orders/1')).toBe('Deny'); // exact path only
    expect(await decision('action=DELETE&resource=/orders')).toBe('Deny');
    const carolToken = await token(carol);
    const res = await get(`/user?access_token=${carolToken}&action=GET&resource=/orders`);
    expect(await res.json()).toMatchObject({ roles: [], organizations: [], authorization_decision: 'Deny' });
    // A switch turned off takes effect at once.
    await setRolePermission(service.db, reg.app.id, editor, postOrders, false);
    expect(await decision('action=POST&resource=/orders')).toBe('Deny');
    await setRolePermission(service.db, reg.app.id, editor, postOrders, true);
  });

  it('refuses a decision request for another application, or with half the parameters', async () => {
    const other = await get(
      `/user?access_token=${bobToken}&action=GET&resource=/orders&app_id=${unrelated.app.clientId}`,
    );
    expect(other.status).toBe(401);
    // Keyrock's body for a token of an application that app_id does not trust: a JSON string.
    expect(await other.json()).toBe('User not authorized in application');
    const half = await get(`/user?access_token=${bobToken}&action=GET`);
    expect(half.status).toBe(400);
  });
});

describe('GET /users/:id', () => {
  it('shows the token’s own user with actorId, nickName and organizations', async () => {
    const res = await get(`/users/${bob.id}?access_token=${bobToken}`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({
      id: bob.id,
      actorId: bob.actorId,
      nickName: bob.nickName,
      displayName: bob.displayName,
      email: bob.email,
      roles: [{ id: viewer, name: 'Viewer' }],
      organizations: [
        { id: acme.id, actorId: acme.actorId, displayName: 'Acme', roles: [{ id: editor, name: 'Editor' }] },
        { id: idle.id, actorId: idle.actorId, displayName: 'Idle', roles: [] },
      ],
    });
  });

  it('shows users holding a role in the app, directly or through an organization; others are 404', async () => {
    expect((await get(`/users/${alice.id}?access_token=${bobToken}`)).status).toBe(200);
    const viaOrg = await get(`/users/${dave.id}`, { authorization: `Bearer ${bobToken}` });
    expect(viaOrg.status).toBe(200);
    expect(await viaOrg.json()).toMatchObject({ id: dave.id, roles: [], organizations: [{ id: acme.id }] });
    expect((await get(`/users/${carol.id}?access_token=${bobToken}`)).status).toBe(404);
    expect((await get(`/users/99999?access_token=${bobToken}`)).status).toBe(404);
  });

  it('a non-integer id is 400; no token is 401', async () => {
    expect((await get(`/users/abc?access_token=${bobToken}`)).status).toBe(400);
    expect((await get(`/users/1.5?access_token=${bobToken}`)).status).toBe(400);
    expect((await get(`/users/${bob.id}`)).status).toBe(401);
  });

  it('a client-credentials token sees the app’s users', async () => {
    const res = await postForm(
      `${service.url}/oauth2/token`,
      { grant_type: 'client_credentials' },
      { authorization: basic(reg.app.clientId, reg.secret) },
    );
    const cc = ((await res.json()) as { access_token: string }).access_token;
    expect((await get(`/users/${bob.id}?access_token=${cc}`)).status).toBe(200);
    expect((await get(`/users/${carol.id}?access_token=${cc}`)).status).toBe(404);
  });
});

describe('GET /applications.json', () => {
  const app = () => ({
    id: reg.app.id,
    name: 'Orders',
    description: 'An app for tests',
    url: 'http://localhost:9999',
  });

  it('lists the applications a user holds a role in, for that user’s own token', async () => {
    const res = await get(`/applications.json?actor_id=${bob.actorId}&access_token=${bobToken}`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual([app()]);
  });

  it('lists an organization’s applications for a member', async () => {
    const res = await get(`/applications.json?actor_id=${acme.actorId}&access_token=${bobToken}`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual([app()]);
    const empty = await get(`/applications.json?actor_id=${idle.actorId}&access_token=${bobToken}`);
    expect(await empty.json()).toEqual([]);
  });

  it('403 for another user or an organization the token’s user is not in', async () => {
    expect((await get(`/applications.json?actor_id=${alice.actorId}&access_token=${bobToken}`)).status).toBe(
      403,
    );
    const aliceToken = await token(alice);
    expect((await get(`/applications.json?actor_id=${acme.actorId}&access_token=${aliceToken}`)).status).toBe(
      403,
    );
  });

  it('400 for a missing or non-integer actor_id, 404 for an unknown actor, 401 without a token', async () => {
    expect((await get(`/applications.json?access_token=${bobToken}`)).status).toBe(400);
    expect((await get(`/applications.json?actor_id=x&access_token=${bobToken}`)).status).toBe(400);
    expect((await get(`/applications.json?actor_id=99999&access_token=${bobToken}`)).status).toBe(404);
    expect((await get(`/applications.json?actor_id=${bob.actorId}`)).status).toBe(401);
  });
});
