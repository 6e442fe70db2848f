import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sha256 } from '../shared/crypto.js';
import { keys } from '../shared/store/keys.js';
import { linkIn, mailsTo, waitForMail } from './support/mail.js';
import { basic, newApp, postForm } from './support/oauth.js';
import { startService, type TestService } from './support/service.js';

// Mail, e-mail verification and password reset, through the local server
// with the run's real maildev (test/global-setup.ts): each mail is read over maildev's HTTP API.
let service: TestService;
beforeAll(async () => {
  service = await startService({ IDM_REQUIRE_EMAIL_VERIFICATION: 'true' });
});
afterAll(() => service.close());

const PASSWORD = 'password-123';
const VERIFY = 'Confirm your email address';
const RESET = 'Reset your password';
const address = (name: string) => `${name}-${randomUUID().slice(0, 8)}@example.com`;

async function call(method: string, path: string, body?: unknown, headers: Record<string, string> = {}) {
  const res = await fetch(`${service.url}${path}`, {
    method,
    headers: { 'content-type': 'application/json', ...headers },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  const text = await res.text();
  return {
    status: res.status,
    body: text ? JSON.parse(text) : undefined,
    cookie: res.headers.get('set-cookie'),
  };
}

const signUp = (email: string) =>
  call('POST', '/api/users', { email, password: PASSWORD, displayName: 'Someone' });
const signIn = (email: string, password = PASSWORD) => call('POST', '/api/session', { email, password });

async function verifiedUser(email: string): Promise<number> {
  const created = await signUp(email);
  expect(created.status).toBe(201);
  const { token } = linkIn(await waitForMail(email, VERIFY));
  expect((await call('POST', '/api/email-verification/confirm', { token })).status).toBe(200);
  return created.body.user.id as number;
}

describe('e-mail verification', () => {
  it('mails a link on sign-up; sign-in is refused until it is followed, then works', async () => {
    const email = address('new');
    const created = await signUp(email);
    expect(created.status).toBe(201);
    expect(created.body.verification).toBe('required');

    const mail = await waitForMail(email, VERIFY);
    expect(mail.from[0]!.address).toBe('no-reply@gatehouse.localhost');
    const { url, token } = linkIn(mail);
    expect(url.origin).toBe(service.url);
    expect(url.pathname).toBe('/verify-email');
    expect(mail.html).toContain(`href="${url.href}"`);

    const refused = await signIn(email);
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({ error: 'email_not_verified' });
    expect(refused.body.error_description).toMatch(/Confirm your email address first/);
    // A wrong password says nothing about verification.
    expect((await signIn(email, 'wrong-password')).status).toBe(401);

    const confirmed = await call('POST', '/api/email-verification/confirm', { token });
    expect(confirmed).toMatchObject({ status: 200, body: { email, verified: true } });
    const ok = await signIn(email);
    expect(ok.status).toBe(200);
    expect(ok.body.user.email).toBe(email);
  });

  it('refuses a used link and an expired one, with a 400 the portal can show', async () => {
    const email = address('once');
    await verifiedUser(email);
    const { token } = linkIn(await waitForMail(email, VERIFY));
    const again = await call('POST', '/api/email-verification/confirm', { token });
    expect(again.status).toBe(400);
    expect(again.body).toMatchObject({ error: 'invalid_request', field: 'token' });
    expect(again.body.error_description).toMatch(/not valid or was already used/);

    const late = address('late');
    await signUp(late);
    const expired = linkIn(await waitForMail(late, VERIFY)).token;
    // 24 hours pass: the stored link's expiry is in the past (TTL has not deleted it yet).
    await service.db.doc.update({
      TableName: service.db.table,
      Key: keys.accountLink(sha256(expired)),
      UpdateExpression: 'SET expiresAt = :past',
      ExpressionAttributeValues: { ':past': Math.floor(Date.now() / 1000) - 1 },
    });
    const refused = await call('POST', '/api/email-verification/confirm', { token: expired });
    expect(refused.status).toBe(400);
    expect(refused.body.error_description).toMatch(/expired/);
    expect((await signIn(late)).status).toBe(403);
    for (const token of [undefined, 42, 'short', 'x'.repeat(500)]) {
      expect((await call('POST', '/api/email-verification/confirm', { token })).status).toBe(400);
    }
  });

  it('re-sends a link to an unverified account and answers the same for an unknown address', async () => {
    const email = address('resend');
    await signUp(email);
    await waitForMail(email, VERIFY);
    const known = await call('POST', '/api/email-verification', { email });
    const unknownAddress = address('nobody');
    const unknown = await call('POST', '/api/email-verification', { email: unknownAddress });
    expect(known.status).toBe(202);
    expect(unknown).toEqual({ ...known, cookie: null });
    expect(known.body).toEqual({ message: 'If an account has this address, we have emailed it a link.' });
    // The second link works (the first one too: each is single-use on its own).
    const second = await waitForMail(email, VERIFY, 2);
    expect(
      (await call('POST', '/api/email-verification/confirm', { token: linkIn(second).token })).status,
    ).toBe(200);
    expect(await mailsTo(unknownAddress)).toEqual([]);
    expect((await call('POST', '/api/email-verification', { email: 'not-an-email' })).status).toBe(400);
  });

  it('refuses the password grant (invalid_grant) and Keyrock API tokens until the address is verified', async () => {
    const email = address('grant');
    const created = await signUp(email);
    const { app, secret } = await newApp(service.db, created.body.user.id, { grantTypes: ['password'] });
    const grant = () =>
      postForm(
        `${service.url}/oauth2/token`,
        { grant_type: 'password', username: email, password: PASSWORD },
        { authorization: basic(app.clientId, secret) },
      );
    const refused = await grant();
    expect(refused.status).toBe(400);
    expect(await refused.json()).toMatchObject({
      error: 'invalid_grant',
      error_description: expect.stringMatching(/Confirm your email address first/),
    });
    // Keyrock's POST /v1/auth/tokens goes through the same check.
    const keyrock = () => call('POST', '/v1/auth/tokens', { name: email, password: PASSWORD });
    const refusedKeyrock = await keyrock();
    expect(refusedKeyrock.status).toBe(401);
    expect(refusedKeyrock.body.error.message).toMatch(/Confirm your email address first/);
    const { token } = linkIn(await waitForMail(email, VERIFY));
    await call('POST', '/api/email-verification/confirm', { token });
    expect((await grant()).status).toBe(200);
    expect((await keyrock()).status).toBe(201);
  });
});

describe('password reset', () => {
  it('mails a link; the reset sets the password, ends sessions and revokes refresh tokens', async () => {
    const email = address('reset');
    const userId = await verifiedUser(email);
    const session = await signIn(email);
    const cookie = session.cookie!.split(';')[0]!;
    expect((await call('GET', '/api/session', undefined, { cookie })).body.user.email).toBe(email);
    const { app, secret } = await newApp(service.db, userId, { grantTypes: ['password', 'refresh_token'] });
    const auth = { authorization: basic(app.clientId, secret) };
    const tokens = await postForm(
      `${service.url}/oauth2/token`,
      { grant_type: 'password', username: email, password: PASSWORD },
      auth,
    );
    expect(tokens.status).toBe(200);
    const { refresh_token } = (await tokens.json()) as { refresh_token: string };
    expect(refresh_token).toBeTruthy();

    const asked = await call('POST', '/api/password-reset', { email });
    expect(asked).toMatchObject({ status: 202, body: { message: expect.any(String) } });
    const { url, token } = linkIn(await waitForMail(email, RESET));
    expect(url.pathname).toBe('/reset-password');

    // A bad password is refused without spending the link.
    const short = await call('POST', '/api/password-reset/confirm', { token, password: 'short' });
    expect(short).toMatchObject({ status: 400, body: { field: 'password' } });
    const done = await call('POST', '/api/password-reset/confirm', { token, password: 'a-new-password' });
    expect(done).toMatchObject({ status: 200, body: { email, reset: true } });

    expect((await call('GET', '/api/session', undefined, { cookie })).body.user).toBeNull();
    const refreshed = await postForm(
      `${service.url}/oauth2/token`,
      { grant_type: 'refresh_token', refresh_token },
      auth,
    );
    expect(refreshed.status).toBe(400);
    expect(await refreshed.json()).toMatchObject({ error: 'invalid_grant' });
    expect((await signIn(email)).status).toBe(401);
    expect((await signIn(email, 'a-new-password')).status).toBe(200);
    // Single use.
    const reused = await call('POST', '/api/password-reset/confirm', { token, password: 'another-password' });
    expect(reused.status).toBe(400);
    expect((await signIn(email, 'another-password')).status).toBe(401);
  });

  it('answers the same for an unknown address and sends nothing', async () => {
    const nobody = address('ghost');
    const known = address('known');
    await verifiedUser(known);
    const a = await call('POST', '/api/password-reset', { email: nobody });
    const b = await call('POST', '/api/password-reset', { email: known });
    expect(a).toEqual(b);
    await waitForMail(known, RESET);
    expect(await mailsTo(nobody)).toEqual([]);
  });

  it('limits requests per address, known or not', async () => {
    for (const [email, known] of [
      [address('many'), true],
      [address('many-unknown'), false],
    ] as const) {
      if (known) await verifiedUser(email);
      for (let i = 0; i < 5; i++)
        expect((await call('POST', '/api/password-reset', { email })).status).toBe(202);
      const limited = await call('POST', '/api/password-reset', { email });
      expect(limited.status).toBe(429);
      expect(limited.body.error_description).toMatch(/Too many requests/);
    }
  });

  // Last in the file: it spends this client address's allowance of reset mails.
  it('limits requests per client address', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 12; i++) {
      statuses.push((await call('POST', '/api/password-reset', { email: address('spread') })).status);
    }
    // 15 requests went before this test (429s count too); the 21st of the hour is refused.
    expect(statuses.filter((s) => s === 202)).toHaveLength(20 - 15);
    expect(statuses.at(-1)).toBe(429);
  });
});
