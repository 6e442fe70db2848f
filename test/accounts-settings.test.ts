import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sha256 } from '../shared/crypto.js';
import { registerUser } from '../shared/domain/accounts.js';
import { authorize } from '../shared/store/authorizations.js';
import { putConsent } from '../shared/store/consents.js';
import { keys } from '../shared/store/keys.js';
import { queryPartition } from '../shared/store/ops.js';
import { createOrganization, getMembership, setMember } from '../shared/store/organizations.js';
import { totals } from '../shared/store/stats.js';
import { getLogin, getUser } from '../shared/store/users.js';
import { linkIn, waitForMail } from './support/mail.js';
import { basic, newApp, postForm } from './support/oauth.js';
import { PortalSession } from './support/portal.js';
import { startService, type TestService } from './support/service.js';

// Account settings through the local server: name, password, e-mail (re-verified
// through the run's maildev), sessions, and deleting the account.
let service: TestService;
beforeAll(async () => {
  service = await startService();
});
afterAll(() => service.close());

const PASSWORD = 'password-123';
const address = (name: string) => `${name}-${randomUUID().slice(0, 8)}@example.com`;
const CHANGE = 'Confirm your new email address';

class Browser extends PortalSession {
  constructor() {
    super(() => service.url);
  }
  override signIn(email: string, password = PASSWORD) {
    return super.signIn(email, password);
  }
}

async function person(name = 'p', admin = false) {
  const email = address(name);
  const user = await registerUser(
    service.db,
    { email, password: PASSWORD, displayName: `${name} person`, admin },
    4,
  );
  const browser = new Browser();
  expect((await browser.signIn(email)).status).toBe(200);
  return { user, email, browser };
}

describe('display name', () => {
  it('changes the name, refuses a bad one (400) and a request without the CSRF token (403)', async () => {
    const { browser } = await person('name');
    const renamed = await browser.call('PATCH', '/api/account', { displayName: '  Ada Lovelace ' });
    expect(renamed.status).toBe(200);
    expect(renamed.body.user.displayName).toBe('Ada Lovelace');
    expect((await browser.call('GET', '/api/session')).body.user.displayName).toBe('Ada Lovelace');
    const empty = await browser.call('PATCH', '/api/account', { displayName: '' });
    expect(empty).toMatchObject({ status: 400, body: { field: 'displayName' } });
    const long = await browser.call('PATCH', '/api/account', { displayName: 'x'.repeat(65) });
    expect(long.status).toBe(400);
    const forged = await browser.call('PATCH', '/api/account', { displayName: 'Mallory' }, { csrf: false });
    expect(forged.status).toBe(403);
    expect((await browser.call('GET', '/api/account')).body.user.displayName).toBe('Ada Lovelace');
    expect((await new Browser().call('GET', '/api/account')).status).toBe(401);
  });
});

describe('password', () => {
  it('asks the current password (400, not 401), then ends the other sessions', async () => {
    const { email, browser } = await person('pw');
    const other = new Browser();
    await other.signIn(email);
    const wrong = await browser.call('PUT', '/api/account/password', {
      password: 'not-it-at-all',
      newPassword: 'new-password-456',
    });
    expect(wrong).toMatchObject({ status: 400, body: { field: 'password' } });
    const weak = await browser.call('PUT', '/api/account/password', {
      password: PASSWORD,
      newPassword: 'short',
    });
    expect(weak).toMatchObject({ status: 400, body: { field: 'newPassword' } });
    const same = await browser.call('PUT', '/api/account/password', {
      password: PASSWORD,
      newPassword: PASSWORD,
    });
    expect(same).toMatchObject({ status: 400, body: { field: 'newPassword' } });

    const changed = await browser.call('PUT', '/api/account/password', {
      password: PASSWORD,
      newPassword: 'new-password-456',
    });
    expect(changed).toMatchObject({ status: 200, body: { changed: true, sessionsEnded: 1 } });
    expect((await other.call('GET', '/api/account')).status).toBe(401);
    expect((await browser.call('GET', '/api/account')).status).toBe(200);
    expect((await new Browser().signIn(email)).status).toBe(401);
    expect((await new Browser().signIn(email, 'new-password-456')).status).toBe(200);
  });

  it('keeps the other sessions when asked to', async () => {
    const { email, browser } = await person('pwkeep');
    const other = new Browser();
    await other.signIn(email);
    const changed = await browser.call('PUT', '/api/account/password', {
      password: PASSWORD,
      newPassword: 'new-password-456',
      signOutOthers: false,
    });
    expect(changed).toMatchObject({ status: 200, body: { sessionsEnded: 0 } });
    expect((await other.call('GET', '/api/account')).status).toBe(200);
  });

  it('locks the account after five wrong current passwords (429), as sign-in does', async () => {
    const { email, browser } = await person('guess');
    for (let i = 0; i < 5; i++) {
      const res = await browser.call('PUT', '/api/account/password', {
        password: `guess-${i}-xx`,
        newPassword: 'x-new-pass-1',
      });
      expect(res.status).toBe(400);
    }
    const locked = await browser.call('PUT', '/api/account/password', {
      password: PASSWORD,
      newPassword: 'x-new-pass-1',
    });
    expect(locked.status).toBe(429);
    expect((await new Browser().signIn(email)).status).toBe(429);
  });
});

describe('sessions', () => {
  it('lists the live sessions, the current one first, and ends one or all others', async () => {
    const { email, browser } = await person('sess');
    const laptop = new Browser();
    const phone = new Browser();
    await laptop.signIn(email);
    await phone.signIn(email);
    const listed = await browser.call('GET', '/api/account');
    expect(listed.status).toBe(200);
    const sessions = listed.body.sessions as { id: string; current: boolean; signedInAt: string }[];
    expect(sessions).toHaveLength(3);
    expect(sessions[0]!.current).toBe(true);
    expect(sessions.filter((s) => s.current)).toHaveLength(1);
    expect(sessions[0]!.signedInAt).toMatch(/^\d{4}-\d\d-\d\dT/);
    // The list never carries a cookie's value: only digests, which sign nobody in.
    expect(JSON.stringify(listed.body)).not.toContain(browser.cookie.split('=')[1]!);

    const laptopId = sha256(laptop.cookie.split('=')[1]!);
    expect(sessions.map((s) => s.id)).toContain(laptopId);
    expect((await browser.call('DELETE', `/api/account/sessions/${laptopId}`)).status).toBe(200);
    expect((await laptop.call('GET', '/api/account')).status).toBe(401);
    expect((await phone.call('GET', '/api/account')).status).toBe(200);
    expect((await browser.call('DELETE', `/api/account/sessions/${laptopId}`)).status).toBe(404);
    expect((await browser.call('DELETE', `/api/account/sessions/${sessions[0]!.id}`)).status).toBe(400);
    expect((await browser.call('DELETE', '/api/account/sessions/not-a-session')).status).toBe(404);

    // Someone else's session cannot be ended from here.
    const stranger = await person('stranger');
    const strangerId = sha256(stranger.browser.cookie.split('=')[1]!);
    expect((await browser.call('DELETE', `/api/account/sessions/${strangerId}`)).status).toBe(404);
    expect((await stranger.browser.call('GET', '/api/account')).status).toBe(200);

    const all = await browser.call('DELETE', '/api/account/sessions');
    expect(all).toMatchObject({ status: 200, body: { sessionsEnded: 1 } });
    expect((await phone.call('GET', '/api/account')).status).toBe(401);
    expect((await browser.call('GET', '/api/account')).body.sessions).toHaveLength(1);
    expect((await browser.call('DELETE', '/api/account/sessions', undefined, { csrf: false })).status).toBe(
      403,
    );
  });
});

describe('e-mail change', () => {
  it('keeps the old address until the link mailed to the new one is followed', async () => {
    const { email, browser, user } = await person('move');
    const next = address('moved');
    const wrong = await browser.call('POST', '/api/account/email', {
      email: next,
      password: 'wrong-password',
    });
    expect(wrong).toMatchObject({ status: 400, body: { field: 'password' } });
    const sameAddress = await browser.call('POST', '/api/account/email', { email, password: PASSWORD });
    expect(sameAddress).toMatchObject({ status: 400, body: { field: 'email' } });
    const taken = (await person('taken')).email;
    expect(
      (await browser.call('POST', '/api/account/email', { email: taken, password: PASSWORD })).status,
    ).toBe(409);
    const bad = await browser.call('POST', '/api/account/email', { email: 'nope', password: PASSWORD });
    expect(bad).toMatchObject({ status: 400, body: { field: 'email' } });

    const asked = await browser.call('POST', '/api/account/email', {
      email: next.toUpperCase(),
      password: PASSWORD,
    });
    expect(asked).toMatchObject({ status: 202, body: { pendingEmail: next } });
    const mail = await waitForMail(next, CHANGE);
    const { url, token } = linkIn(mail);
    expect(url.pathname).toBe('/confirm-email');
    // The current address is told, without a link: nothing changes from there.
    const notice = await waitForMail(email, 'Your email address is about to change');
    expect(notice.text).toContain(`change its email address to ${next}`);
    expect(notice.text).not.toMatch(/https?:\/\//);
    // Until then nothing changed.
    expect((await browser.call('GET', '/api/account')).body.user.email).toBe(email);
    expect((await new Browser().signIn(email)).status).toBe(200);
    expect((await new Browser().signIn(next)).status).toBe(401);

    const confirmed = await fetch(`${service.url}/api/account/email/confirm`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ token }),
    });
    expect(confirmed.status).toBe(200);
    expect(await confirmed.json()).toEqual({ email: next, changed: true });
    expect((await browser.call('GET', '/api/account')).body.user.email).toBe(next);
    expect((await new Browser().signIn(next)).status).toBe(200);
    expect((await new Browser().signIn(email)).status).toBe(401);
    expect(await getLogin(service.db, email)).toBeUndefined();
    expect((await getUser(service.db, user.id))?.email).toBe(next);

    const reused = await browser.call('POST', '/api/account/email/confirm', { token });
    expect(reused.status).toBe(400);
    expect(reused.body.error_description).toMatch(/not valid or was already used/);
  });

  it('refuses an expired link and leaves the address as it was', async () => {
    const { email, browser } = await person('late');
    const next = address('never');
    expect(
      (await browser.call('POST', '/api/account/email', { email: next, password: PASSWORD })).status,
    ).toBe(202);
    const { token } = linkIn(await waitForMail(next, CHANGE));
    await service.db.doc.update({
      TableName: service.db.table,
      Key: keys.accountLink(sha256(token)),
      UpdateExpression: 'SET expiresAt = :past',
      ExpressionAttributeValues: { ':past': Math.floor(Date.now() / 1000) - 1 },
    });
    const refused = await browser.call('POST', '/api/account/email/confirm', { token });
    expect(refused.status).toBe(400);
    expect(refused.body.error_description).toMatch(/expired/);
    expect((await browser.call('GET', '/api/account')).body.user.email).toBe(email);
    // A verification or reset token is not an address-change token.
    expect((await browser.call('POST', '/api/account/email/confirm', { token: 'x'.repeat(43) })).status).toBe(
      400,
    );
  });
});

describe('deleting the account', () => {
  it('names every organization the person is the last owner of (409), then deletes everything once handed over', async () => {
    const { user, email, browser } = await person('leaver');
    const heir = await person('heir');
    const solo = await createOrganization(service.db, {
      name: 'Solo Org',
      description: '',
      ownerUserId: user.id,
    });
    const duo = await createOrganization(service.db, {
      name: 'Duo Org',
      description: '',
      ownerUserId: user.id,
    });
    const shared = await createOrganization(service.db, {
      name: 'Shared Org',
      description: '',
      ownerUserId: heir.user.id,
    });
    await setMember(service.db, shared.id, user.id, 'member');
    const { app, secret } = await newApp(service.db, heir.user.id, {
      grantTypes: ['password', 'refresh_token'],
    });
    await authorize(
      service.db,
      app.id,
      { kind: 'user', id: user.id },
      (await roleIdOf(app.id, 'purchaser'))!,
    );
    await putConsent(service.db, user.id, app.id);
    const tokens = await (
      await postForm(
        `${service.url}/oauth2/token`,
        { grant_type: 'password', username: email, password: PASSWORD },
        { authorization: basic(app.clientId, secret) },
      )
    ).json();
    expect(tokens.refresh_token).toBeDefined();

    const wrong = await browser.call('DELETE', '/api/account', { password: 'wrong-password' });
    expect(wrong).toMatchObject({ status: 400, body: { field: 'password' } });
    const refused = await browser.call('DELETE', '/api/account', { password: PASSWORD });
    expect(refused.status).toBe(409);
    expect(refused.body.error).toBe('last_owner');
    expect(refused.body.error_description).toContain('You are the last owner of organizations');
    expect(refused.body.error_description).toContain(`Solo Org (${solo.id})`);
    expect(refused.body.error_description).toContain(`Duo Org (${duo.id})`);
    expect(refused.body.error_description).not.toContain('Shared Org');
    expect(await getUser(service.db, user.id)).toBeDefined();

    await setMember(service.db, solo.id, heir.user.id, 'owner');
    await setMember(service.db, duo.id, heir.user.id, 'owner');
    const before = await totals(service.db);
    const deleted = await browser.call('DELETE', '/api/account', { password: PASSWORD });
    expect(deleted).toMatchObject({ status: 200, body: { deleted: true } });
    expect(deleted.setCookie).toMatch(/Max-Age=0/);

    expect(await queryPartition(service.db, keys.userPartition(user.id))).toEqual([]);
    expect(await getLogin(service.db, email)).toBeUndefined();
    expect(await getMembership(service.db, shared.id, user.id)).toBeUndefined();
    expect(await getMembership(service.db, solo.id, heir.user.id)).toMatchObject({ role: 'owner' });
    expect(await queryPartition(service.db, keys.userGrantsPartition(user.id))).toEqual([]);
    expect((await totals(service.db)).users).toBe(before.users - 1);
    const nick = await service.db.doc.get({ TableName: service.db.table, Key: keys.nick(user.nickName) });
    expect(nick.Item).toBeUndefined();
    expect((await new Browser().signIn(email)).status).toBe(401);
    const refreshed = await postForm(
      `${service.url}/oauth2/token`,
      { grant_type: 'refresh_token', refresh_token: tokens.refresh_token },
      { authorization: basic(app.clientId, secret) },
    );
    expect(refreshed.status).toBe(400);
    const user401 = await fetch(`${service.url}/user?access_token=${tokens.access_token}`);
    expect(user401.status).toBe(401);
  });
});

async function roleIdOf(appId: number, builtIn: string): Promise<number | undefined> {
  const items = await queryPartition(service.db, keys.appPartition(appId), keys.rolePrefix);
  return items.find((i) => i.builtIn === builtIn)?.id as number | undefined;
}
