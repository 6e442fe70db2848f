import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerUser } from '../shared/domain/accounts.js';
import { setAdministrator } from '../shared/domain/user-admin.js';
import { adminIds, getUser, setEnabled } from '../shared/store/users.js';
import { expectKeyrockError, keyrockClient } from './support/keyrock.js';
import { authorizeLocation, basic, CALLBACK, newApp, postForm, signedIn } from './support/oauth.js';
import { PortalSession } from './support/portal.js';
import { startService, type TestService } from './support/service.js';

// The administrator page through the local server: the directory with search and
// paging, disabling and enabling (tokens stop at once), the administrator flag, the SCIM totals.
let service: TestService;
beforeAll(async () => {
  service = await startService();
});
afterAll(() => service.close());

const PASSWORD = 'correct horse battery';
const run = randomUUID().slice(0, 6);

class Browser extends PortalSession {
  constructor() {
    super(() => service.url);
  }
  override signIn(email: string) {
    return super.signIn(email, PASSWORD);
  }
}

async function person(local: string, displayName: string, admin = false) {
  const email = `${local}-${run}@example.com`;
  const user = await registerUser(service.db, { email, password: PASSWORD, displayName, admin }, 4);
  const browser = new Browser();
  expect((await browser.signIn(email)).status).toBe(200);
  return { user, email, browser };
}

const keyrock = keyrockClient(() => service);
let admin: Awaited<ReturnType<typeof person>>;
let plain: Awaited<ReturnType<typeof person>>;
beforeAll(async () => {
  admin = await person('root', 'Root Admin', true);
  plain = await person('plain', 'Plain Person');
  for (const [local, name] of [
    ['zoe', 'Zoe Zimmer'],
    ['zack', 'Zack Young'],
    ['zara', 'Zara Young'],
  ] as const) {
    await registerUser(
      service.db,
      { email: `${local}-${run}@example.com`, password: PASSWORD, displayName: name },
      4,
    );
  }
});

describe('who may', () => {
  it('refuses everyone but administrators with 403, and the session says who is one', async () => {
    expect((await plain.browser.call('GET', '/api/admin/users')).status).toBe(403);
    const patch = await plain.browser.call('PATCH', `/api/admin/users/${admin.user.id}`, { enabled: false });
    expect(patch.status).toBe(403);
    expect((await getUser(service.db, admin.user.id))?.enabled).toBe(true);
    expect((await new Browser().call('GET', '/api/admin/users')).status).toBe(401);
    expect((await admin.browser.call('GET', '/api/session')).body.user.admin).toBe(true);
    expect((await plain.browser.call('GET', '/api/session')).body.user.admin).toBe(false);
  });
});

describe('the directory', () => {
  it('searches by email prefix and by display-name prefix, case-insensitively, page by page', async () => {
    const byEmail = await admin.browser.call('GET', '/api/admin/users?q=Z&limit=2');
    expect(byEmail.status).toBe(200);
    expect(byEmail.body.users.map((u: { email: string }) => u.email)).toEqual([
      `zack-${run}@example.com`,
      `zara-${run}@example.com`,
    ]);
    expect(byEmail.body.users[0]).toMatchObject({ displayName: 'Zack Young', admin: false, enabled: true });
    const next = byEmail.body.next as string;
    expect(next).toEqual(expect.any(String));
    const page2 = await admin.browser.call('GET', `/api/admin/users?q=z&limit=2&cursor=${next}`);
    expect(page2.body.users.map((u: { email: string }) => u.email)).toEqual([`zoe-${run}@example.com`]);
    if (page2.body.next) {
      const page3 = await admin.browser.call('GET', `/api/admin/users?q=z&limit=2&cursor=${page2.body.next}`);
      expect(page3.body.users).toEqual([]);
    }

    const byName = await admin.browser.call('GET', '/api/admin/users?by=name&q=young');
    expect(byName.body.users.map((u: { displayName: string }) => u.displayName)).toEqual([]);
    const byName2 = await admin.browser.call('GET', '/api/admin/users?by=name&q=za');
    expect(byName2.body.users.map((u: { displayName: string }) => u.displayName)).toEqual([
      'Zack Young',
      'Zara Young',
    ]);
    const all = await admin.browser.call('GET', '/api/admin/users?limit=100');
    expect(all.body.users).toHaveLength(5);
  });

  it('shows the SCIM totals with the list', async () => {
    const page = await admin.browser.call('GET', '/api/admin/users?limit=1');
    const scim = await (await fetch(`${service.url}/v2/ServiceProviderConfigs`)).json();
    expect(page.body.totals).toEqual({
      users: Number(scim.totalUsers),
      organizations: Number(scim.totalOrganizations),
      resources: Number(scim.totalResources),
    });
    expect(page.body.totals.users).toBe(5);
  });

  it('refuses a bad cursor, field or limit with a 400 naming the parameter', async () => {
    const forged = Buffer.from(
      JSON.stringify({ GSI1PK: 'USER#1#SESSIONS', GSI1SK: 'x', PK: 'a', SK: 'b' }),
    ).toString('base64url');
    for (const [query, field] of [
      ['cursor=garbage', 'cursor'],
      [`cursor=${forged}`, 'cursor'],
      ['by=nickname', 'by'],
      ['limit=0', 'limit'],
      ['limit=1000', 'limit'],
      [`q=${'a'.repeat(101)}`, 'q'],
    ] as const) {
      const res = await admin.browser.call('GET', `/api/admin/users?${query}`);
      expect(res.status, query).toBe(400);
      expect(res.body.field, query).toBe(field);
    }
    // A cursor from an email search does not fit a name search, nor another prefix.
    const first = await admin.browser.call('GET', '/api/admin/users?q=z&limit=1');
    expect(
      (await admin.browser.call('GET', `/api/admin/users?by=name&q=z&cursor=${first.body.next}`)).status,
    ).toBe(400);
    expect((await admin.browser.call('GET', `/api/admin/users?q=p&cursor=${first.body.next}`)).status).toBe(
      400,
    );
  });

  it('follows a change of name or email', async () => {
    const renamed = await plain.browser.call('PATCH', '/api/account', { displayName: 'Quentin Plain' });
    expect(renamed.status).toBe(200);
    const byName = await admin.browser.call('GET', '/api/admin/users?by=name&q=quentin');
    expect(byName.body.users.map((u: { id: number }) => u.id)).toEqual([plain.user.id]);
    expect((await admin.browser.call('GET', '/api/admin/users?by=name&q=plain')).body.users).toEqual([]);
  });
});

describe('disabling and enabling', () => {
  it('stops the account’s tokens at once (/user 401), signs it out, and enable lets it back in', async () => {
    const target = await person('target', 'Target Person');
    const { app, secret } = await newApp(service.db, admin.user.id, { grantTypes: ['password'] });
    const refreshing = await newApp(service.db, admin.user.id, { grantTypes: ['password', 'refresh_token'] });
    const grant = async (r: { app: { clientId: string }; secret: string }) => {
      const res = await postForm(
        `${service.url}/oauth2/token`,
        { grant_type: 'password', username: target.email, password: PASSWORD, scope: 'openid' },
        { authorization: basic(r.app.clientId, r.secret) },
      );
      return { status: res.status, body: await res.json() };
    };
    const token = (await grant({ app, secret })).body.access_token as string;
    const withRefresh = (await grant(refreshing)).body;
    const apiToken = await keyrock.signIn(target.email);
    const userinfo = (t: string) =>
      fetch(`${service.url}/user`, { headers: { authorization: `Bearer ${t}` } });
    expect((await userinfo(token)).status).toBe(200);

    const disabled = await admin.browser.call('PATCH', `/api/admin/users/${target.user.id}`, {
      enabled: false,
    });
    expect(disabled).toMatchObject({ status: 200, body: { user: { id: target.user.id, enabled: false } } });

    const refused = await userinfo(token);
    expect(refused.status).toBe(401);
    expect(refused.headers.get('www-authenticate')).toContain('error="invalid_token"');
    expect(await refused.json()).toMatchObject({
      error: 'invalid_token',
      error_description: expect.stringMatching(/disabled/),
    });
    expect(
      (
        await fetch(`${service.url}/users/${target.user.id}`, {
          headers: { authorization: `Bearer ${token}` },
        })
      ).status,
    ).toBe(401);
    expect(
      (await fetch(`${service.url}/oauth2/userinfo`, { headers: { authorization: `Bearer ${token}` } }))
        .status,
    ).toBe(401);
    const introspected = await postForm(
      `${service.url}/oauth2/introspect`,
      { token },
      { authorization: basic(app.clientId, secret) },
    );
    expect(await introspected.json()).toEqual({ active: false });
    const refreshed = await postForm(
      `${service.url}/oauth2/token`,
      { grant_type: 'refresh_token', refresh_token: withRefresh.refresh_token },
      { authorization: basic(refreshing.app.clientId, refreshing.secret) },
    );
    expect(refreshed.status).toBe(400);
    expect((await refreshed.json()).error).toBe('invalid_grant');
    expect((await target.browser.call('GET', '/api/account')).status).toBe(401);
    const signIn = await new Browser().signIn(target.email);
    expect(signIn).toMatchObject({ status: 403, body: { error: 'account_disabled' } });
    const passwordGrant = await grant({ app, secret });
    expect(passwordGrant).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
    expectKeyrockError(await keyrock.call('GET', `/v1/users/${target.user.id}`, { token: apiToken }), 401);
    const listed = await admin.browser.call('GET', `/api/admin/users?q=target-${run}`);
    expect(listed.body.users[0]).toMatchObject({ id: target.user.id, enabled: false });

    const enabled = await admin.browser.call('PATCH', `/api/admin/users/${target.user.id}`, {
      enabled: true,
    });
    expect(enabled).toMatchObject({ status: 200, body: { user: { enabled: true } } });
    // An access token that was not revoked (its grant held no refresh token) works again, as the
    // switch is read with the user; the refresh token's grant was revoked for good.
    expect((await userinfo(token)).status).toBe(200);
    expect((await userinfo(withRefresh.access_token)).status).toBe(401);
    expect((await new Browser().signIn(target.email)).status).toBe(200);
    expect((await grant({ app, secret })).status).toBe(200);
  });

  it('refuses a refresh whose user was disabled even before its grant was revoked', async () => {
    const target = await person('window', 'Window Person');
    const r = await newApp(service.db, admin.user.id, { grantTypes: ['password', 'refresh_token'] });
    const auth = { authorization: basic(r.app.clientId, r.secret) };
    const first = await (
      await postForm(
        `${service.url}/oauth2/token`,
        { grant_type: 'password', username: target.email, password: PASSWORD },
        auth,
      )
    ).json();
    // The switch alone (the store's write, before the revocation that follows it in the domain).
    await setEnabled(service.db, target.user.id, false);
    const refused = await postForm(
      `${service.url}/oauth2/token`,
      { grant_type: 'refresh_token', refresh_token: first.refresh_token },
      auth,
    );
    expect(refused.status).toBe(400);
    expect(await refused.json()).toMatchObject({
      error: 'invalid_grant',
      error_description: expect.stringMatching(/disabled/),
    });
    // What the refused request minted was revoked with the grant.
    await setEnabled(service.db, target.user.id, true);
    const again = await postForm(
      `${service.url}/oauth2/token`,
      { grant_type: 'refresh_token', refresh_token: first.refresh_token },
      auth,
    );
    expect(again.status).toBe(400);
  });

  it('gives no tokens for a code whose user was disabled after it was issued', async () => {
    const target = await person('code', 'Code Person');
    const r = await newApp(service.db, admin.user.id, { grantTypes: ['authorization_code'] });
    const browser = await signedIn(service.db, target.user.id);
    const location = await authorizeLocation(
      service.url,
      { response_type: 'code', client_id: r.app.clientId, redirect_uri: CALLBACK, scope: 'openid' },
      browser,
    );
    const code = location.searchParams.get('code')!;
    await setEnabled(service.db, target.user.id, false);
    const refused = await postForm(
      `${service.url}/oauth2/token`,
      { grant_type: 'authorization_code', code, redirect_uri: CALLBACK },
      { authorization: basic(r.app.clientId, r.secret) },
    );
    expect(refused.status).toBe(400);
    expect(await refused.json()).toMatchObject({
      error: 'invalid_grant',
      error_description: expect.stringMatching(/disabled/),
    });
  });

  it('refuses to disable oneself, and bad bodies', async () => {
    const self = await admin.browser.call('PATCH', `/api/admin/users/${admin.user.id}`, { enabled: false });
    expect(self).toMatchObject({ status: 400, body: { field: 'enabled' } });
    expect(
      (await admin.browser.call('PATCH', `/api/admin/users/${plain.user.id}`, { enabled: 'no' })).status,
    ).toBe(400);
    expect((await admin.browser.call('PATCH', `/api/admin/users/${plain.user.id}`, {})).status).toBe(400);
    expect((await admin.browser.call('PATCH', '/api/admin/users/999999', { enabled: false })).status).toBe(
      404,
    );
    expect((await admin.browser.call('PATCH', '/api/admin/users/abc', { enabled: false })).status).toBe(400);
  });

  it('is the same switch as Keyrock’s PATCH /v1/users/:id {user: {enabled}}', async () => {
    const target = await person('kr', 'Keyrock Target');
    const adminToken = await keyrock.signIn(admin.email);
    const plainToken = await keyrock.signIn(plain.email);
    expectKeyrockError(
      await keyrock.call('PATCH', `/v1/users/${target.user.id}`, {
        token: plainToken,
        json: { user: { enabled: false } },
      }),
      403,
    );
    const off = await keyrock.call('PATCH', `/v1/users/${target.user.id}`, {
      token: adminToken,
      json: { user: { enabled: false } },
    });
    expect(off.status).toBe(200);
    expect(off.body).toEqual({ values_updated: { enabled: false } });
    expect(
      (await keyrock.call('GET', `/v1/users/${target.user.id}`, { token: adminToken })).body.user,
    ).toMatchObject({
      enabled: false,
    });
    expect((await target.browser.call('GET', '/api/account')).status).toBe(401);
    expect((await admin.browser.call('GET', `/api/admin/users?q=kr-${run}`)).body.users[0].enabled).toBe(
      false,
    );
    expectKeyrockError(
      await keyrock.call('PATCH', `/v1/users/${admin.user.id}`, {
        token: adminToken,
        json: { user: { enabled: false } },
      }),
      400,
    );
    expectKeyrockError(
      await keyrock.call('PATCH', `/v1/users/${target.user.id}`, {
        token: adminToken,
        json: { user: { enabled: 1 } },
      }),
      400,
    );
    const on = await keyrock.call('PATCH', `/v1/users/${target.user.id}`, {
      token: adminToken,
      json: { user: { enabled: true } },
    });
    expect(on.body).toEqual({ values_updated: { enabled: true } });
    expect((await new Browser().signIn(target.email)).status).toBe(200);
  });
});

describe('the administrator flag', () => {
  it('makes and unmakes administrators, never oneself, never the last one', async () => {
    const helper = await person('helper', 'Helper Person');
    const made = await admin.browser.call('PATCH', `/api/admin/users/${helper.user.id}`, { admin: true });
    expect(made).toMatchObject({ status: 200, body: { user: { admin: true } } });
    expect((await helper.browser.call('GET', '/api/admin/users')).status).toBe(200);
    expect(await adminIds(service.db)).toEqual([admin.user.id, helper.user.id]);

    const self = await helper.browser.call('PATCH', `/api/admin/users/${helper.user.id}`, { admin: false });
    expect(self).toMatchObject({ status: 400, body: { field: 'admin' } });
    const unmade = await helper.browser.call('PATCH', `/api/admin/users/${admin.user.id}`, { admin: false });
    expect(unmade).toMatchObject({ status: 200, body: { user: { admin: false } } });
    expect((await admin.browser.call('GET', '/api/admin/users')).status).toBe(403);

    // The CLI has no "not yourself" rule, but the last administrator stays one.
    await expect(setAdministrator(service.db, helper.user.id, false)).rejects.toMatchObject({ status: 409 });
    expect((await getUser(service.db, helper.user.id))?.admin).toBe(true);
    await setAdministrator(service.db, admin.user.id, true);
    expect(await adminIds(service.db)).toEqual([admin.user.id, helper.user.id]);
    // The last administrator cannot delete their account either.
    await setAdministrator(service.db, helper.user.id, false);
    const gone = await admin.browser.call('DELETE', '/api/account', { password: PASSWORD });
    expect(gone.status).toBe(409);
    expect(gone.body.error_description).toMatch(/last administrator/);
  });
});
