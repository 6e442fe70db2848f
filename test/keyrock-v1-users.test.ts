import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sha256 } from '../shared/crypto.js';
import { setAdministrator } from '../shared/domain/user-admin.js';
import { putApiToken } from '../shared/store/api-tokens.js';
import { authorize } from '../shared/store/authorizations.js';
import {
  createOrganization,
  getMembership,
  getOrganization,
  setMember,
} from '../shared/store/organizations.js';
import { totals } from '../shared/store/stats.js';
import { getLogin, getUser, type User } from '../shared/store/users.js';
import { nowSeconds } from '../shared/time.js';
import { expectKeyrockError, keyrockClient, PASSWORD } from './support/keyrock.js';
import { basic, newApp, postForm } from './support/oauth.js';
import { startService, type TestService } from './support/service.js';

/**
 * Keyrock's /v1 API tokens, users, service-provider totals and /version, through the local
 * server with plain fetch, as Keyrock's scripts call them. Users are made with the same domain
 * function the CLI and the portal use; the administrator as `idm user set-admin` makes one.
 */
let service: TestService;
const { call, signIn, register } = keyrockClient(() => service);
let admin: User;
let bob: User;
let carol: User;
let adminToken: string;
let bobToken: string;
let carolToken: string;

beforeAll(async () => {
  service = await startService();
  admin = await setAdministrator(service.db, (await register('alice-the-admin@test.com', 'alice')).id, true);
  bob = await register('bob-the-manager@test.com', 'bob');
  carol = await register('carol@test.com', 'carol');
  [adminToken, bobToken, carolToken] = await Promise.all([
    signIn(admin.email),
    signIn(bob.email),
    signIn(carol.email),
  ]);
});
afterAll(() => service.close());

describe('POST /v1/auth/tokens', () => {
  it('signs in with name and password: 201, the token in X-Subject-Token, Keyrock’s body', async () => {
    const before = nowSeconds();
    const res = await call('POST', '/v1/auth/tokens', { json: { name: bob.email, password: PASSWORD } });
    expect(res.status).toBe(201);
    const token = res.headers.get('x-subject-token')!;
    expect(token).toMatch(/^[0-9a-z]+\.[A-Za-z0-9_-]{43}$/);
    expect(res.body).toEqual({
      token: { methods: ['password'], expires_at: expect.any(String) },
      idm_authorization_config: { level: 'basic', authzforce: false },
    });
    const expires = Date.parse((res.body.token as { expires_at: string }).expires_at) / 1000;
    expect(expires).toBeGreaterThanOrEqual(before + 3600 - 1);
    expect(expires).toBeLessThanOrEqual(nowSeconds() + 3600 + 1);
    // Only the digest is stored.
    const raw = await service.db.doc.get({
      TableName: service.db.table,
      Key: { PK: `APITOKEN#${sha256(token)}`, SK: 'APITOKEN' },
    });
    expect(raw.Item).toMatchObject({ userId: bob.id, expiresAt: expect.any(Number) });
    expect(JSON.stringify(raw.Item)).not.toContain(token);
  });

  it('accepts a form body, as Keyrock’s own test sends', async () => {
    const res = await fetch(`${service.url}/v1/auth/tokens`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ grant_type: 'password', name: bob.email, password: PASSWORD }),
    });
    expect(res.status).toBe(201);
    expect(res.headers.get('x-subject-token')).toBeTruthy();
  });

  it('exchanges a live token for a new one (method token), and both together when they agree', async () => {
    const res = await call('POST', '/v1/auth/tokens', { json: { token: bobToken } });
    expect(res.status).toBe(201);
    expect(res.body.token).toMatchObject({ methods: ['token'] });
    const fresh = res.headers.get('x-subject-token')!;
    expect(fresh).not.toBe(bobToken);
    expect((await call('GET', `/v1/users/${bob.id}`, { token: fresh })).status).toBe(200);
    const both = await call('POST', '/v1/auth/tokens', {
      json: { name: bob.email, password: PASSWORD, token: bobToken },
    });
    expect(both.status).toBe(201);
    expect(both.body.token).toMatchObject({ methods: ['password', 'token'] });
    const mismatch = await call('POST', '/v1/auth/tokens', {
      json: { name: bob.email, password: PASSWORD, token: carolToken },
    });
    expectKeyrockError(mismatch, 401);
  });

  it('answers 401 in Keyrock’s shape for an unknown email, a wrong password or an unknown token', async () => {
    for (const json of [
      { name: 'nobody@nowhere.com', password: 'unknown-pass' },
      { name: admin.email, password: 'wrongPassword' },
      { token: 'not-a-token' },
      { token: `${bob.id.toString(36)}.${'A'.repeat(43)}` },
    ]) {
      const res = await call('POST', '/v1/auth/tokens', { json });
      expectKeyrockError(res, 401);
      expect(res.headers.get('x-subject-token')).toBeNull();
    }
  });

  it('locks an account after repeated failures, as sign-in does (429)', async () => {
    const victim = await register('locked@test.com', 'locked');
    for (let i = 0; i < 5; i++) {
      const res = await call('POST', '/v1/auth/tokens', {
        json: { name: victim.email, password: 'wrong-password' },
      });
      expect(res.status).toBe(401);
    }
    const res = await call('POST', '/v1/auth/tokens', { json: { name: victim.email, password: PASSWORD } });
    expectKeyrockError(res, 429);
  });

  it('answers 400 for a body that is not JSON, misses a field or has another type', async () => {
    expectKeyrockError(await call('POST', '/v1/auth/tokens', { raw: '{"name": ' }), 400);
    expectKeyrockError(await call('POST', '/v1/auth/tokens', { raw: '[1]' }), 400);
    const missing = await call('POST', '/v1/auth/tokens', { json: { name: bob.email } });
    expectKeyrockError(missing, 400);
    expect(missing.body.error!.message).toBe('Expecting to find name and password or token in body request');
    const text = await call('POST', '/v1/auth/tokens', { raw: 'name=x', type: 'text/plain' });
    expectKeyrockError(text, 400);
  });
});

describe('GET and DELETE /v1/auth/tokens', () => {
  it('shows one’s own token with its user', async () => {
    const res = await call('GET', '/v1/auth/tokens', {
      token: bobToken,
      headers: { 'x-subject-token': bobToken },
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      access_token: bobToken,
      expires: expect.any(String),
      valid: true,
      User: {
        id: String(bob.id),
        username: 'bob',
        email: bob.email,
        date_password: expect.any(String),
        enabled: true,
        admin: false,
      },
    });
  });

  it('shows anyone’s token to an administrator, and nobody else’s to a user (401, as Keyrock)', async () => {
    const asAdmin = await call('GET', '/v1/auth/tokens', {
      token: adminToken,
      headers: { 'x-subject-token': carolToken },
    });
    expect(asAdmin.status).toBe(200);
    expect(asAdmin.body.User).toMatchObject({ id: String(carol.id) });
    const asBob = await call('GET', '/v1/auth/tokens', {
      token: bobToken,
      headers: { 'x-subject-token': carolToken },
    });
    expectKeyrockError(asBob, 401);
    const unknown = await call('GET', '/v1/auth/tokens', {
      token: bobToken,
      headers: { 'x-subject-token': 'nothing' },
    });
    expectKeyrockError(unknown, 401);
    expectKeyrockError(await call('GET', '/v1/auth/tokens', { token: bobToken }), 400);
  });

  it('revokes a token (204); it no longer works; another user cannot revoke it (403)', async () => {
    const token = await signIn(carol.email);
    const refused = await call('DELETE', '/v1/auth/tokens', {
      token: bobToken,
      headers: { 'x-subject-token': token },
    });
    expectKeyrockError(refused, 403);
    const res = await call('DELETE', '/v1/auth/tokens', { token, headers: { 'x-subject-token': token } });
    expect(res.status).toBe(204);
    expectKeyrockError(await call('GET', `/v1/users/${carol.id}`, { token }), 401);
    const again = await call('DELETE', '/v1/auth/tokens', {
      token: carolToken,
      headers: { 'x-subject-token': token },
    });
    expectKeyrockError(again, 404);
  });

  it('lets an administrator revoke anyone’s token', async () => {
    const token = await signIn(carol.email);
    const res = await call('DELETE', '/v1/auth/tokens', {
      token: adminToken,
      headers: { 'x-subject-token': token },
    });
    expect(res.status).toBe(204);
    expect((await call('POST', '/v1/auth/tokens', { json: { token } })).status).toBe(401);
  });
});

describe('authentication of every other /v1 call', () => {
  it('refuses a missing, unknown or expired token with Keyrock’s 401 and a challenge', async () => {
    const missing = await call('GET', '/v1/users');
    expectKeyrockError(missing, 401);
    expect(missing.headers.get('www-authenticate')).toContain('Bearer');
    expectKeyrockError(await call('GET', '/v1/users', { token: 'wrong' }), 401);
    const forged = `${admin.id.toString(36)}.${'x'.repeat(43)}`;
    expectKeyrockError(await call('GET', '/v1/users', { token: forged }), 401);
    const expired = `${admin.id.toString(36)}.${'e'.repeat(43)}`;
    await putApiToken(service.db, {
      digest: sha256(expired),
      userId: admin.id,
      expiresAt: nowSeconds() - 1,
      methods: ['password'],
    });
    const res = await call('GET', '/v1/users', { token: expired });
    expectKeyrockError(res, 401);
    expect(res.body.error!.message).toBe('Token has expired');
    expect((await call('POST', '/v1/auth/tokens', { json: { token: expired } })).status).toBe(401);
  });

  it('accepts the API token as Authorization: Bearer too, as Keyrock does; not an OAuth token', async () => {
    const res = await call('GET', `/v1/users/${bob.id}`, {
      headers: { authorization: `Bearer ${bobToken}` },
    });
    expect(res.status).toBe(200);
    const reg = await newApp(service.db, bob.id);
    const grant = await postForm(
      `${service.url}/oauth2/token`,
      { grant_type: 'password', username: bob.email, password: PASSWORD },
      { authorization: basic(reg.app.clientId, reg.secret) },
    );
    const oauth = ((await grant.json()) as { access_token: string }).access_token;
    const refused = await call('GET', `/v1/users/${bob.id}`, {
      headers: { authorization: `Bearer ${oauth}` },
    });
    expectKeyrockError(refused, 401);
  });
});

describe('/v1/users', () => {
  it('lists users for an administrator, a page at a time (Link: rel="next")', async () => {
    const res = await call('GET', '/v1/users', { token: adminToken });
    expect(res.status).toBe(200);
    const users = res.body.users as Record<string, unknown>[];
    expect(users.map((u) => u.id)).toEqual(expect.arrayContaining([String(admin.id), String(bob.id)]));
    expect(users.find((u) => u.id === String(bob.id))).toEqual({
      id: String(bob.id),
      username: 'bob',
      email: bob.email,
      enabled: true,
      gravatar: false,
      date_password: expect.any(String),
      description: null,
      website: null,
    });
    const first = await call('GET', '/v1/users?limit=1', { token: adminToken });
    expect((first.body.users as unknown[]).length).toBe(1);
    const link = first.headers.get('link')!;
    expect(link).toMatch(/^<\/v1\/users\?limit=1&cursor=2>; rel="next"$/);
    const second = await call('GET', link.slice(1, link.indexOf('>')), { token: adminToken });
    expect((second.body.users as { id: string }[])[0]!.id).toBe('2');
    expectKeyrockError(await call('GET', '/v1/users?limit=0', { token: adminToken }), 400);
    expectKeyrockError(await call('GET', '/v1/users?limit=5000', { token: adminToken }), 400);
    expectKeyrockError(await call('GET', '/v1/users?cursor=x', { token: adminToken }), 400);
  });

  it('refuses the list and creation to a non-administrator (403)', async () => {
    expectKeyrockError(await call('GET', '/v1/users', { token: bobToken }), 403);
    const res = await call('POST', '/v1/users', {
      token: bobToken,
      json: { user: { username: 'x', email: 'x@test.com', password: PASSWORD } },
    });
    expectKeyrockError(res, 403);
  });

  it('creates a user that the portal, /v1 and the totals all see', async () => {
    const before = await totals(service.db);
    const res = await call('POST', '/v1/users', {
      token: adminToken,
      json: {
        user: {
          username: 'Dave Doe',
          email: 'Dave@Test.com',
          password: 'dave-password',
          description: 'A tester',
          website: 'https://dave.example',
        },
      },
    });
    expect(res.status).toBe(201);
    const user = res.body.user as Record<string, unknown>;
    expect(user).toEqual({
      id: expect.stringMatching(/^\d+$/),
      image: 'default',
      gravatar: false,
      enabled: true,
      admin: false,
      username: 'Dave Doe',
      email: 'dave@test.com',
      date_password: expect.any(String),
      description: 'A tester',
      website: 'https://dave.example',
    });
    expect(await totals(service.db)).toEqual({ ...before, users: before.users + 1 });
    // The same record the portal signs in with.
    const session = await call('POST', '/api/session', {
      json: { email: 'dave@test.com', password: 'dave-password' },
    });
    expect(session.status).toBe(200);
    const read = await call('GET', `/v1/users/${user.id}`, { token: adminToken });
    expect(read.body.user).toMatchObject({ username: 'Dave Doe', description: 'A tester', admin: false });
  });

  it('answers creation mistakes with Keyrock’s 400 and 409', async () => {
    const post = (json: unknown) => call('POST', '/v1/users', { token: adminToken, json });
    expectKeyrockError(await post({}), 400);
    const noName = await post({ user: { email: 'n@test.com', password: PASSWORD } });
    expectKeyrockError(noName, 400);
    expect(noName.body.error!.message).toBe('Missing parameter username in body request or empty username');
    expectKeyrockError(await post({ user: { username: 'n', password: PASSWORD } }), 400);
    expectKeyrockError(await post({ user: { username: 'n', email: 'n@test.com' } }), 400);
    expectKeyrockError(await post({ user: { username: 'n', email: 'bad', password: PASSWORD } }), 400);
    expectKeyrockError(await post({ user: { username: 'n', email: 'n@test.com', password: 'short' } }), 400);
    const website = await post({
      user: { username: 'n', email: 'n@test.com', password: PASSWORD, website: 'javascript:x' },
    });
    expectKeyrockError(website, 400);
    expectKeyrockError(await post({ user: { username: 'n', email: bob.email, password: PASSWORD } }), 409);
    const notJson = await call('POST', '/v1/users', {
      token: adminToken,
      raw: '{"user":',
      type: 'application/json',
    });
    expectKeyrockError(notJson, 400);
    const wrongType = await call('POST', '/v1/users', {
      token: adminToken,
      raw: 'user=1',
      type: 'text/plain',
    });
    expectKeyrockError(wrongType, 400);
  });

  it('reads oneself, anyone as an administrator, and nobody else (403, even for an unknown id)', async () => {
    const self = await call('GET', `/v1/users/${bob.id}`, { token: bobToken });
    expect(self.status).toBe(200);
    expect(self.body.user).toEqual({
      id: String(bob.id),
      username: 'bob',
      email: bob.email,
      enabled: true,
      admin: false,
      image: 'default',
      gravatar: false,
      date_password: expect.any(String),
      description: null,
      website: null,
    });
    expect((await call('GET', `/v1/users/${bob.id}`, { token: adminToken })).status).toBe(200);
    expectKeyrockError(await call('GET', `/v1/users/${carol.id}`, { token: bobToken }), 403);
    expectKeyrockError(await call('GET', '/v1/users/99999', { token: bobToken }), 403);
    expectKeyrockError(await call('GET', '/v1/users/99999', { token: adminToken }), 404);
    expectKeyrockError(await call('GET', '/v1/users/not-an-id', { token: adminToken }), 404);
  });

  it('updates oneself: Keyrock’s values_updated, the new password and email work, the old ones not', async () => {
    const erin = await register('erin@test.com', 'erin');
    const token = await signIn(erin.email);
    const res = await call('PATCH', `/v1/users/${erin.id}`, {
      token,
      json: { user: { username: 'new_username_erin', password: 'new_password', email: 'erin2@test.com' } },
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ values_updated: { username: 'new_username_erin', email: 'erin2@test.com' } });
    expect(await getLogin(service.db, 'erin@test.com')).toBeUndefined();
    expect(await getLogin(service.db, 'erin2@test.com')).toMatchObject({ userId: erin.id });
    expect(
      (await call('POST', '/v1/auth/tokens', { json: { name: 'erin2@test.com', password: 'new_password' } }))
        .status,
    ).toBe(201);
    expect(
      (await call('POST', '/v1/auth/tokens', { json: { name: 'erin@test.com', password: PASSWORD } })).status,
    ).toBe(401);
    const stored = (await getUser(service.db, erin.id))!;
    expect(stored).toMatchObject({ displayName: 'new_username_erin', email: 'erin2@test.com' });
    expect(stored.datePassword! > stored.createdAt).toBe(true);
    const same = await call('PATCH', `/v1/users/${erin.id}`, {
      token,
      json: { user: { username: 'new_username_erin' } },
    });
    expect(same.body).toEqual({
      message: "Request don't change the user parameters",
      code: 200,
      title: 'OK',
    });
    const profile = await call('PATCH', `/v1/users/${erin.id}`, {
      token,
      json: { user: { description: 'Hello', website: 'https://erin.example' } },
    });
    expect(profile.body).toEqual({
      values_updated: { description: 'Hello', website: 'https://erin.example' },
    });
  });

  it('refuses another user’s change (403) and bad changes (400, 409), changing nothing', async () => {
    const patch = (id: number, token: string, json: unknown) =>
      call('PATCH', `/v1/users/${id}`, { token, json });
    expectKeyrockError(await patch(carol.id, bobToken, { user: { username: 'hacked' } }), 403);
    expect((await getUser(service.db, carol.id))!.displayName).toBe('carol');
    expectKeyrockError(await patch(bob.id, bobToken, { user: { id: '7' } }), 400);
    expectKeyrockError(await patch(bob.id, bobToken, { user: { email: '' } }), 400);
    expectKeyrockError(await patch(bob.id, bobToken, {}), 400);
    expectKeyrockError(await patch(bob.id, bobToken, { user: { password: 'short' } }), 400);
    expectKeyrockError(await patch(bob.id, bobToken, { user: { email: carol.email } }), 409);
    expect((await getLogin(service.db, bob.email))!.userId).toBe(bob.id);
    expectKeyrockError(await patch(99999, adminToken, { user: { username: 'x' } }), 404);
    // An administrator may change anyone, but never the admin flag through /v1.
    const res = await patch(carol.id, adminToken, { user: { description: 'Set by admin', admin: true } });
    expect(res.body).toEqual({ values_updated: { description: 'Set by admin' } });
    expect((await getUser(service.db, carol.id))!.admin).toBe(false);
  });

  it('deletes a user with login, nickName, memberships and authorizations at once; totals follow', async () => {
    const frank = await register('frank@test.com', 'frank');
    const owner = await register('owner@test.com', 'owner');
    const org = await createOrganization(service.db, {
      name: 'Acme',
      description: '',
      ownerUserId: owner.id,
    });
    await setMember(service.db, org.id, frank.id, 'owner');
    const reg = await newApp(service.db, owner.id);
    const provider = (await import('../shared/store/roles.js')).roleCatalogue;
    const roles = (await provider(service.db, reg.app.id)).roles;
    await authorize(service.db, reg.app.id, { kind: 'user', id: frank.id }, roles[0]!.id);
    const token = await signIn(frank.email);
    const before = await totals(service.db);
    expectKeyrockError(await call('DELETE', `/v1/users/${frank.id}`, { token: bobToken }), 403);
    const res = await call('DELETE', `/v1/users/${frank.id}`, { token });
    expect(res.status).toBe(204);
    expect(await getUser(service.db, frank.id)).toBeUndefined();
    expect(await getLogin(service.db, frank.email)).toBeUndefined();
    expect(await getMembership(service.db, org.id, frank.id)).toBeUndefined();
    expect(await getOrganization(service.db, org.id)).toBeDefined();
    expect(await totals(service.db)).toEqual({ ...before, users: before.users - 1 });
    const left = await service.db.doc.query({
      TableName: service.db.table,
      KeyConditionExpression: 'PK = :pk',
      ExpressionAttributeValues: { ':pk': `USER#${frank.id}` },
    });
    expect(left.Items).toEqual([]);
    // The email is free again, the token is dead, the organization kept its other owner.
    expectKeyrockError(await call('GET', '/v1/users', { token }), 401);
    expect((await register('frank@test.com', 'frank again')).id).not.toBe(frank.id);
    const orgAfter = await service.db.doc.get({
      TableName: service.db.table,
      Key: { PK: `ORG#${org.id}`, SK: 'PROFILE' },
    });
    expect(orgAfter.Item!.owners).toBe(1);
    expectKeyrockError(await call('DELETE', `/v1/users/${frank.id}`, { token: adminToken }), 404);
  });

  it('refuses to delete the last owner of an organization (409), leaving everything in place', async () => {
    const gina = await register('gina@test.com', 'gina');
    const org = await createOrganization(service.db, { name: 'Solo', description: '', ownerUserId: gina.id });
    const res = await call('DELETE', `/v1/users/${gina.id}`, { token: adminToken });
    expectKeyrockError(res, 409);
    expect(await getUser(service.db, gina.id)).toBeDefined();
    expect(await getMembership(service.db, org.id, gina.id)).toMatchObject({ role: 'owner' });
  });
});

describe('GET /v1/service_providers/configs and /version', () => {
  it('gives administrators Keyrock’s totals, and nobody else', async () => {
    const res = await call('GET', '/v1/service_providers/configs', { token: adminToken });
    expect(res.status).toBe(200);
    const t = await totals(service.db);
    expect(res.body).toEqual({
      information: {
        total_users: t.users,
        total_organizations: t.organizations,
        total_applications: expect.any(Number),
      },
    });
    expectKeyrockError(await call('GET', '/v1/service_providers/configs', { token: bobToken }), 403);
    expectKeyrockError(await call('GET', '/v1/service_providers/configs'), 401);
  });

  it('answers /version in Keyrock’s shape without a token', async () => {
    const res = await call('GET', '/version');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      keyrock: {
        version: expect.stringMatching(/^8\./),
        release_date: expect.any(String),
        uptime: expect.stringMatching(/^\d\d:\d\d:\d\d\.\d$/),
        doc: expect.any(String),
        api: { version: 'v1', link: `${service.url}/v1` },
      },
    });
  });
});
