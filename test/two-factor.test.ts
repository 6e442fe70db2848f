import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { decodeJwt } from 'jose';
import { Secret, TOTP } from 'otpauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { keys } from '../shared/store/keys.js';
import { basic, newApp, newUser, openidCodeTokens, PASSWORD, postForm, signedIn } from './support/oauth.js';
import { startService, type TestService } from './support/service.js';

// Two-factor sign-in (authenticator app, recovery codes; passkeys' refusals here, their whole
// walk in test/browser-two-factor.test.ts) through the local server.
let service: TestService;
let atRestKeyFile: string;
beforeAll(async () => {
  atRestKeyFile = join(tmpdir(), `gatehouse-totp-${process.pid}-${Date.now()}`);
  service = await startService({ IDM_AT_REST_KEY_FILE: atRestKeyFile });
});
afterAll(() => service.close());

type Browser = { cookie: string; csrf: string };

async function call(method: string, path: string, body?: unknown, browser?: Browser) {
  const res = await fetch(`${service.url}${path}`, {
    method,
    headers: {
      'content-type': 'application/json',
      ...(browser ? { cookie: browser.cookie, 'x-csrf-token': browser.csrf } : {}),
    },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  const text = await res.text();
  return {
    status: res.status,
    body: text ? JSON.parse(text) : undefined,
    cookie: res.headers.get('set-cookie'),
  };
}

/** The code an app shows `steps` periods from now (one step either way is accepted). */
const codeAt = (secret: string, steps = 0) =>
  new TOTP({ secret: Secret.fromBase32(secret) }).generate({ timestamp: Date.now() + steps * 30_000 });

/** A user with an authenticator app enrolled: its secret and recovery codes. */
async function enrolled(name = 'totp') {
  const user = await newUser(service.db, name);
  const browser = await signedIn(service.db, user.id);
  const started = await call('POST', '/api/account/two-factor/totp', { password: PASSWORD }, browser);
  expect(started.status).toBe(201);
  const secret = started.body.secret as string;
  const confirmed = await call(
    'POST',
    '/api/account/two-factor/totp/confirm',
    { code: codeAt(secret) },
    browser,
  );
  expect(confirmed.status).toBe(200);
  return { user, browser, secret, recoveryCodes: confirmed.body.recoveryCodes as string[] };
}

const passwordStep = (email: string, password = PASSWORD) =>
  call('POST', '/api/session', { email, password });

describe('enrolling an authenticator app', () => {
  it('asks for the password, shows a QR code once, and turns two-factor on with a confirming code', async () => {
    const user = await newUser(service.db, 'enrol');
    const browser = await signedIn(service.db, user.id);
    expect((await call('GET', '/api/account/two-factor', undefined, browser)).body).toEqual({
      enabled: false,
      totp: false,
      recoveryCodesLeft: 0,
      passkeys: [],
    });
    const wrongPassword = await call(
      'POST',
      '/api/account/two-factor/totp',
      { password: 'nope-nope' },
      browser,
    );
    expect(wrongPassword.status).toBe(400);
    expect(wrongPassword.body).toMatchObject({ field: 'password' });
    const started = await call('POST', '/api/account/two-factor/totp', { password: PASSWORD }, browser);
    expect(started.status).toBe(201);
    expect(started.body.secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(started.body.uri).toBe(
      `otpauth://totp/Gatehouse:${encodeURIComponent(user.email)}?issuer=Gatehouse&secret=${started.body.secret}&algorithm=SHA1&digits=6&period=30`,
    );
    expect(started.body.qrCode).toMatch(/^data:image\/svg\+xml;base64,/);
    expect(Buffer.from(started.body.qrCode.split(',')[1], 'base64').toString()).toContain('<svg');

    const bad = await call('POST', '/api/account/two-factor/totp/confirm', { code: '000000' }, browser);
    expect(bad.status).toBe(400);
    expect(bad.body.error_description).toContain('not right');
    const ok = await call(
      'POST',
      '/api/account/two-factor/totp/confirm',
      { code: codeAt(started.body.secret) },
      browser,
    );
    expect(ok.status).toBe(200);
    expect(ok.body.recoveryCodes).toHaveLength(10);
    expect(new Set(ok.body.recoveryCodes).size).toBe(10);
    for (const code of ok.body.recoveryCodes) expect(code).toMatch(/^[0-9a-z]{4}(-[0-9a-z]{4}){3}$/);
    expect(ok.body.twoFactor).toEqual({ enabled: true, totp: true, recoveryCodesLeft: 10, passkeys: [] });
    // The confirmation was used: it cannot be confirmed twice.
    const again = await call(
      'POST',
      '/api/account/two-factor/totp/confirm',
      { code: codeAt(started.body.secret) },
      browser,
    );
    expect(again.status).toBe(400);
  });

  it('keeps the secret encrypted and the recovery codes hashed in the table', async () => {
    const { user, secret, recoveryCodes } = await enrolled('at-rest');
    const get = (SK: string) =>
      service.db.doc.get({ TableName: service.db.table, Key: { PK: `MFA#${user.id}`, SK } });
    const totp = (await get('TOTP')).Item!;
    expect(JSON.stringify(totp)).not.toContain(secret);
    expect(totp.secret).toMatch(/^v1\.[\w-]+\.[\w-]+$/);
    const recovery = (await get('RECOVERY')).Item!;
    const stored = JSON.stringify([...(recovery.codes as Set<string>)]);
    for (const code of recoveryCodes) expect(stored).not.toContain(code);
    // The key lives in its own 0600 file, not in the table.
    expect(readFileSync(atRestKeyFile, 'utf8').length).toBeGreaterThan(30);
    expect(keys.twoFactor(user.id, 'TOTP').PK).toBe(`MFA#${user.id}`);
  });

  it('refuses changes without a session or its CSRF token', async () => {
    expect((await call('POST', '/api/account/two-factor/totp', { password: PASSWORD })).status).toBe(401);
    const user = await newUser(service.db, 'csrf');
    const browser = await signedIn(service.db, user.id);
    const noCsrf = await call(
      'POST',
      '/api/account/two-factor/totp',
      { password: PASSWORD },
      { ...browser, csrf: 'x' },
    );
    expect(noCsrf.status).toBe(403);
  });
});

describe('signing in with two-factor on', () => {
  it('asks for a second step after the password, and a code from the app finishes it', async () => {
    const { user, secret } = await enrolled('signin');
    const first = await passwordStep(user.email);
    expect(first.status).toBe(200);
    expect(first.cookie).toBeNull();
    expect(first.body.user).toBeNull();
    expect(first.body.secondFactor.methods).toEqual(['totp', 'recovery']);
    const ticket = first.body.secondFactor.ticket as string;

    const wrong = await call('POST', '/api/session/verify', { ticket, code: '123456' });
    expect(wrong.status).toBe(401);
    expect(wrong.body).toMatchObject({ error: 'invalid_code', field: 'code' });
    expect(wrong.cookie).toBeNull();

    const code = codeAt(secret, 1);
    const ok = await call('POST', '/api/session/verify', { ticket, code });
    expect(ok.status).toBe(200);
    expect(ok.body.user.email).toBe(user.email);
    const cookie = ok.cookie!.split(';')[0]!;
    expect((await call('GET', '/api/session', undefined, { cookie, csrf: '' })).body.user.id).toBe(user.id);

    // The ticket is used up, and the same code is not accepted twice (RFC 6238 §5.2).
    expect((await call('POST', '/api/session/verify', { ticket, code })).body.error).toBe('sign_in_expired');
    const next = await passwordStep(user.email);
    const replay = await call('POST', '/api/session/verify', { ticket: next.body.secondFactor.ticket, code });
    expect(replay.status).toBe(401);
    expect(replay.body.error_description).toBe(
      'This code was used already; wait for the next one from your app.',
    );
  });

  it('tells OpenID clients how the user signed in: amr pwd, or pwd, otp and mfa (RFC 8176)', async () => {
    const owner = await newUser(service.db, 'amr-owner');
    const app = await newApp(service.db, owner.id);
    const idTokenAfter = async (setCookie: string | null) => {
      const cookie = setCookie!.split(';')[0]!;
      const session = await call('GET', '/api/session', undefined, { cookie, csrf: '' });
      const client = { clientId: app.app.clientId, secret: app.secret };
      const tokens = await openidCodeTokens(
        service.url,
        client,
        { cookie, csrf: session.body.csrfToken },
        'n-amr',
      );
      return decodeJwt(tokens.id_token);
    };

    const plain = await newUser(service.db, 'amr-plain');
    const password = await passwordStep(plain.email);
    expect(password.status).toBe(200);
    expect((await idTokenAfter(password.cookie)).amr).toEqual(['pwd']);

    const { user, secret } = await enrolled('amr-totp');
    const first = await passwordStep(user.email);
    const second = await call('POST', '/api/session/verify', {
      ticket: first.body.secondFactor.ticket,
      code: codeAt(secret, 1),
    });
    expect(second.status).toBe(200);
    expect((await idTokenAfter(second.cookie)).amr).toEqual(['pwd', 'otp', 'mfa']);
  });

  it('takes each recovery code once', async () => {
    const { user, recoveryCodes } = await enrolled('recovery');
    const first = await passwordStep(user.email);
    const used = await call('POST', '/api/session/verify', {
      ticket: first.body.secondFactor.ticket,
      code: recoveryCodes[0]!.toUpperCase().replaceAll('-', ' '),
    });
    expect(used.status).toBe(200);
    const browser = { cookie: used.cookie!.split(';')[0]!, csrf: used.body.csrfToken };
    expect((await call('GET', '/api/account/two-factor', undefined, browser)).body.recoveryCodesLeft).toBe(9);

    const second = await passwordStep(user.email);
    const reused = await call('POST', '/api/session/verify', {
      ticket: second.body.secondFactor.ticket,
      code: recoveryCodes[0],
    });
    expect(reused.status).toBe(401);
    expect(reused.body.error).toBe('invalid_code');
    expect(
      (
        await call('POST', '/api/session/verify', {
          ticket: second.body.secondFactor.ticket,
          code: recoveryCodes[1],
        })
      ).status,
    ).toBe(200);
  });

  it('locks the account after five wrong codes, as after five wrong passwords', async () => {
    const { user, secret, recoveryCodes } = await enrolled('guess');
    const { body } = await passwordStep(user.email);
    const ticket = body.secondFactor.ticket as string;
    const answers: number[] = [];
    for (const guess of ['111111', '222222', '333333', 'aaaa-bbbb-cccc-dddd', '444444']) {
      answers.push((await call('POST', '/api/session/verify', { ticket, code: guess })).status);
    }
    expect(answers).toEqual([401, 401, 401, 401, 401]);
    const locked = await call('POST', '/api/session/verify', { ticket, code: codeAt(secret, 1) });
    expect(locked.status).toBe(429);
    expect(locked.body.error_description).toBe('Too many failed sign-in attempts; try again in 15 minutes.');
    expect((await call('POST', '/api/session/verify', { ticket, code: recoveryCodes[0] })).status).toBe(429);
    expect((await passwordStep(user.email)).status).toBe(429);
  });

  it('refuses an unknown or malformed ticket', async () => {
    expect((await call('POST', '/api/session/verify', { ticket: 'nope', code: '123456' })).status).toBe(401);
    expect((await call('POST', '/api/session/verify', { code: '123456' })).body).toMatchObject({
      field: 'ticket',
    });
    const { user } = await enrolled('missing-code');
    const { body } = await passwordStep(user.email);
    const noCode = await call('POST', '/api/session/verify', { ticket: body.secondFactor.ticket });
    expect(noCode.status).toBe(400);
    expect(noCode.body).toMatchObject({ field: 'code' });
  });

  it('signs in without a second step when the app is removed (with the password) and no passkey is left', async () => {
    const { user, browser } = await enrolled('remove');
    expect(
      (await call('DELETE', '/api/account/two-factor/totp', { password: 'wrong-one' }, browser)).status,
    ).toBe(400);
    const removed = await call('DELETE', '/api/account/two-factor/totp', { password: PASSWORD }, browser);
    expect(removed.status).toBe(200);
    expect(removed.body).toEqual({ enabled: false, totp: false, recoveryCodesLeft: 0, passkeys: [] });
    const signedInAgain = await passwordStep(user.email);
    expect(signedInAgain.body.user.email).toBe(user.email);
    expect(signedInAgain.cookie).toContain('gatehouse_session=');
  });

  it('renews recovery codes with the password; the old ones stop working', async () => {
    const { user, browser, recoveryCodes } = await enrolled('renew');
    const renewed = await call(
      'POST',
      '/api/account/two-factor/recovery-codes',
      { password: PASSWORD },
      browser,
    );
    expect(renewed.status).toBe(201);
    expect(renewed.body.recoveryCodes).toHaveLength(10);
    const { body } = await passwordStep(user.email);
    const old = await call('POST', '/api/session/verify', {
      ticket: body.secondFactor.ticket,
      code: recoveryCodes[0],
    });
    expect(old.status).toBe(401);
    const fresh = await call('POST', '/api/session/verify', {
      ticket: body.secondFactor.ticket,
      code: renewed.body.recoveryCodes[0],
    });
    expect(fresh.status).toBe(200);
  });
});

describe('passkeys: what is refused without a browser', () => {
  it('starts a passkey sign-in with a challenge that requires user verification', async () => {
    const started = await call('POST', '/api/session/passkey', {});
    expect(started.status).toBe(200);
    expect(started.body.passkey).toMatchObject({
      rpId: 'localhost',
      userVerification: 'required',
      allowCredentials: [],
    });
    expect(started.body.passkey.challenge).toMatch(/^[\w-]{43}$/);
    const malformed = await call('POST', '/api/session/verify', {
      ticket: started.body.ticket,
      credential: 'x',
    });
    expect(malformed.status).toBe(400);
    const unknown = await call('POST', '/api/session/verify', {
      ticket: started.body.ticket,
      credential: {
        id: 'AAAAAAAAAAAAAAAAAAAAAA',
        rawId: 'AAAAAAAAAAAAAAAAAAAAAA',
        type: 'public-key',
        response: { clientDataJSON: 'e30', authenticatorData: 'AA', signature: 'AA', userHandle: 'MQ' },
        clientExtensionResults: {},
      },
    });
    expect(unknown.status).toBe(401);
    expect(unknown.body.error).toBe('invalid_passkey');
  });

  it('asks for the password before registering a passkey, and refuses an answer that does not verify', async () => {
    const user = await newUser(service.db, 'passkey');
    const browser = await signedIn(service.db, user.id);
    expect((await call('POST', '/api/account/two-factor/passkeys/options', {}, browser)).status).toBe(400);
    const options = await call(
      'POST',
      '/api/account/two-factor/passkeys/options',
      { password: PASSWORD },
      browser,
    );
    expect(options.status).toBe(200);
    expect(options.body).toMatchObject({
      rp: { id: 'localhost', name: 'Gatehouse' },
      user: { name: user.email },
      attestation: 'none',
      authenticatorSelection: { residentKey: 'required' },
    });
    const bad = await call(
      'POST',
      '/api/account/two-factor/passkeys',
      {
        credential: {
          id: 'AAAAAAAAAAAAAAAAAAAAAA',
          rawId: 'AAAAAAAAAAAAAAAAAAAAAA',
          type: 'public-key',
          response: { clientDataJSON: 'e30', attestationObject: 'AA' },
          clientExtensionResults: {},
        },
      },
      browser,
    );
    expect(bad.status).toBe(400);
    expect(bad.body.field).toBe('credential');
    expect(
      (
        await call(
          'DELETE',
          '/api/account/two-factor/passkeys/AAAAAAAAAAAAAAAAAAAAAA',
          { password: PASSWORD },
          browser,
        )
      ).status,
    ).toBe(404);
  });
});

describe('password-only paths refuse an account with two-factor on', () => {
  it('refuses the password grant with invalid_grant and says why', async () => {
    const { user } = await enrolled('grant');
    const owner = await newUser(service.db, 'owner');
    const { app, secret } = await newApp(service.db, owner.id, { grantTypes: ['password', 'refresh_token'] });
    const res = await postForm(
      `${service.url}/oauth2/token`,
      { grant_type: 'password', username: user.email, password: PASSWORD },
      { authorization: basic(app.clientId, secret) },
    );
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({
      error: 'invalid_grant',
      error_description:
        'Two-factor sign-in is on for this account, and the password grant cannot carry a second factor; sign in through the authorization endpoint (authorization code flow) instead.',
    });
    // A wrong password is still the plain refusal: nothing about two-factor is told to a stranger.
    const wrong = await postForm(
      `${service.url}/oauth2/token`,
      { grant_type: 'password', username: user.email, password: 'not-the-one' },
      { authorization: basic(app.clientId, secret) },
    );
    expect((await wrong.json()).error_description).toBe('Invalid email or password.');
  });

  it('gives a Keyrock API token only with a code beside the password', async () => {
    const { user, secret } = await enrolled('v1');
    const post = (body: unknown) =>
      fetch(`${service.url}/v1/auth/tokens`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    const without = await post({ name: user.email, password: PASSWORD });
    expect(without.status).toBe(401);
    expect((await without.json()).error).toMatchObject({ code: 401, title: 'Unauthorized' });
    expect(without.headers.get('x-subject-token')).toBeNull();
    const wrong = await post({ name: user.email, password: PASSWORD, code: '000000' });
    expect(wrong.status).toBe(401);
    const ok = await post({ name: user.email, password: PASSWORD, code: codeAt(secret, 1) });
    expect(ok.status).toBe(201);
    expect(ok.headers.get('x-subject-token')).toBeTruthy();
    expect((await ok.json()).token.methods).toEqual(['password', 'totp']);
  });
});
