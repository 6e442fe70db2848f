import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sha256 } from '../shared/crypto.js';
import { getCode, putCode, putTokens } from '../shared/store/tokens.js';
import type { User } from '../shared/store/users.js';
import { nowSeconds } from '../shared/time.js';
import {
  authorizeLocation,
  basic,
  CALLBACK,
  newApp,
  newUser,
  PASSWORD,
  postForm,
  type Registered,
  signedIn,
} from './support/oauth.js';
import { startService, type TestService } from './support/service.js';

/** Every token endpoint error of RFC 6749 §5.2, with raw HTTP. */
let service: TestService;
let alice: User;
let reg: Registered;
let other: Registered;
let ccOnly: Registered;
let tokenUrl: string;

beforeAll(async () => {
  service = await startService();
  tokenUrl = `${service.url}/oauth2/token`;
  alice = await newUser(service.db, 'alice');
  reg = await newApp(service.db, alice.id);
  other = await newApp(service.db, alice.id, { name: 'Other' });
  ccOnly = await newApp(service.db, alice.id, { grantTypes: ['client_credentials'] });
});
afterAll(() => service.close());

async function expectOAuthError(res: Response, status: number, error: string) {
  expect(res.status).toBe(status);
  expect(res.headers.get('cache-control')).toBe('no-store');
  const body = (await res.json()) as { error: string; error_description: string };
  expect(body.error).toBe(error);
  expect(body.error_description).toEqual(expect.any(String));
  return body;
}

const auth = () => ({ authorization: basic(reg.app.clientId, reg.secret) });

async function code(params: Record<string, string> = {}) {
  const browser = await signedIn(service.db, alice.id);
  const location = await authorizeLocation(
    service.url,
    { response_type: 'code', client_id: reg.app.clientId, redirect_uri: CALLBACK, ...params },
    browser,
  );
  return location.searchParams.get('code')!;
}

describe('client authentication', () => {
  it('no credentials: 401 invalid_client with a Basic challenge', async () => {
    const res = await postForm(tokenUrl, { grant_type: 'client_credentials' });
    await expectOAuthError(res, 401, 'invalid_client');
    expect(res.headers.get('www-authenticate')).toBe('Basic realm="gatehouse"');
  });

  it('wrong secret and unknown client: 401 invalid_client', async () => {
    const wrong = await postForm(
      tokenUrl,
      { grant_type: 'client_credentials' },
      { authorization: basic(reg.app.clientId, 'nope') },
    );
    await expectOAuthError(wrong, 401, 'invalid_client');
    const unknown = await postForm(
      tokenUrl,
      { grant_type: 'client_credentials' },
      { authorization: basic('no-such-client', reg.secret) },
    );
    await expectOAuthError(unknown, 401, 'invalid_client');
    const another = await postForm(
      tokenUrl,
      { grant_type: 'client_credentials' },
      { authorization: basic(reg.app.clientId, other.secret) },
    );
    await expectOAuthError(another, 401, 'invalid_client');
  });

  it('accepts form-urlencoded Basic components (RFC 6749 §2.3.1) and body credentials', async () => {
    const pct = (s: string) =>
      [...s].map((c) => `%${c.charCodeAt(0).toString(16).padStart(2, '0')}`).join('');
    const encoded = await postForm(
      tokenUrl,
      { grant_type: 'client_credentials' },
      { authorization: basic(pct(reg.app.clientId), pct(reg.secret)) },
    );
    expect(encoded.status).toBe(200);
    const body = await postForm(tokenUrl, {
      grant_type: 'client_credentials',
      client_id: reg.app.clientId,
      client_secret: reg.secret,
    });
    expect(body.status).toBe(200);
  });

  it('credentials in both the header and the body: 400 invalid_request', async () => {
    const res = await postForm(
      tokenUrl,
      { grant_type: 'client_credentials', client_id: reg.app.clientId, client_secret: reg.secret },
      auth(),
    );
    await expectOAuthError(res, 400, 'invalid_request');
  });
});

describe('request shape', () => {
  it('a JSON body is invalid_request', async () => {
    const res = await fetch(tokenUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...auth() },
      body: JSON.stringify({ grant_type: 'client_credentials' }),
    });
    await expectOAuthError(res, 400, 'invalid_request');
  });

  it('a repeated parameter is invalid_request', async () => {
    const res = await fetch(tokenUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', ...auth() },
      body: 'grant_type=client_credentials&grant_type=password',
    });
    await expectOAuthError(res, 400, 'invalid_request');
  });

  it('missing grant_type is invalid_request; an unknown one unsupported_grant_type', async () => {
    await expectOAuthError(await postForm(tokenUrl, {}, auth()), 400, 'invalid_request');
    await expectOAuthError(
      await postForm(tokenUrl, { grant_type: 'urn:example:magic' }, auth()),
      400,
      'unsupported_grant_type',
    );
  });

  it('a grant the application has not enabled is unauthorized_client', async () => {
    const res = await postForm(
      tokenUrl,
      { grant_type: 'password', username: alice.email, password: PASSWORD },
      { authorization: basic(ccOnly.app.clientId, ccOnly.secret) },
    );
    await expectOAuthError(res, 400, 'unauthorized_client');
  });

  it('a malformed scope is invalid_scope', async () => {
    const res = await postForm(tokenUrl, { grant_type: 'client_credentials', scope: 'read "all"' }, auth());
    await expectOAuthError(res, 400, 'invalid_scope');
  });
});

describe('password grant errors', () => {
  it('missing username or password is invalid_request; a wrong password invalid_grant', async () => {
    await expectOAuthError(
      await postForm(tokenUrl, { grant_type: 'password', password: 'x' }, auth()),
      400,
      'invalid_request',
    );
    await expectOAuthError(
      await postForm(tokenUrl, { grant_type: 'password', username: alice.email }, auth()),
      400,
      'invalid_request',
    );
    const wrong = await postForm(
      tokenUrl,
      { grant_type: 'password', username: 'nobody@example.com', password: 'wrong-password' },
      auth(),
    );
    await expectOAuthError(wrong, 400, 'invalid_grant');
  });
});

describe('authorization code errors', () => {
  it('a redirect_uri other than the one at /authorize is invalid_grant; missing is invalid_request', async () => {
    const c = await code();
    await expectOAuthError(
      await postForm(
        tokenUrl,
        { grant_type: 'authorization_code', code: c, redirect_uri: `${CALLBACK}/` },
        auth(),
      ),
      400,
      'invalid_grant',
    );
    await expectOAuthError(
      await postForm(tokenUrl, { grant_type: 'authorization_code', code: c }, auth()),
      400,
      'invalid_request',
    );
  });

  it('an unknown code, or one issued to another client, is invalid_grant', async () => {
    await expectOAuthError(
      await postForm(
        tokenUrl,
        { grant_type: 'authorization_code', code: 'nope', redirect_uri: CALLBACK },
        auth(),
      ),
      400,
      'invalid_grant',
    );
    const c = await code();
    const res = await postForm(
      tokenUrl,
      { grant_type: 'authorization_code', code: c, redirect_uri: CALLBACK },
      { authorization: basic(other.app.clientId, other.secret) },
    );
    await expectOAuthError(res, 400, 'invalid_grant');
  });

  it('an expired code is invalid_grant', async () => {
    const value = 'expired-code-value-for-the-test';
    await putCode(service.db, {
      digest: sha256(value),
      clientId: reg.app.clientId,
      appId: reg.app.id,
      userId: alice.id,
      redirectUri: CALLBACK,
      grantId: 'g-expired',
      expiresAt: nowSeconds() - 1,
    });
    const res = await postForm(
      tokenUrl,
      { grant_type: 'authorization_code', code: value, redirect_uri: CALLBACK },
      auth(),
    );
    await expectOAuthError(res, 400, 'invalid_grant');
  });

  it('PKCE: a missing or wrong verifier, or a verifier without a challenge, is invalid_grant', async () => {
    const verifier = 'a'.repeat(43);
    const { calculatePKCECodeChallenge } = await import('oauth4webapi');
    const challenge = await calculatePKCECodeChallenge(verifier);
    const c = await code({ code_challenge: challenge, code_challenge_method: 'S256' });
    const base = { grant_type: 'authorization_code', code: c, redirect_uri: CALLBACK };
    await expectOAuthError(await postForm(tokenUrl, base, auth()), 400, 'invalid_grant');
    await expectOAuthError(
      await postForm(tokenUrl, { ...base, code_verifier: 'b'.repeat(43) }, auth()),
      400,
      'invalid_grant',
    );
    await expectOAuthError(
      await postForm(tokenUrl, { ...base, code_verifier: 'short' }, auth()),
      400,
      'invalid_request',
    );
    // The failed attempts did not consume the code: the right verifier still works.
    expect((await postForm(tokenUrl, { ...base, code_verifier: verifier }, auth())).status).toBe(200);
    const plain = await code();
    await expectOAuthError(
      await postForm(
        tokenUrl,
        { grant_type: 'authorization_code', code: plain, redirect_uri: CALLBACK, code_verifier: verifier },
        auth(),
      ),
      400,
      'invalid_grant',
    );
  });

  it('a second use fails and revokes the tokens issued from the code (RFC 6749 §4.1.2)', async () => {
    const c = await code();
    const form = { grant_type: 'authorization_code', code: c, redirect_uri: CALLBACK };
    const first = await postForm(tokenUrl, form, auth());
    expect(first.status).toBe(200);
    const tokens = (await first.json()) as { access_token: string; refresh_token: string };
    expect((await fetch(`${service.url}/user?access_token=${tokens.access_token}`)).status).toBe(200);
    // The redeemed code is kept as long as its tokens, so a late replay is still caught.
    expect((await getCode(service.db, sha256(c)))!.expiresAt).toBeGreaterThan(nowSeconds() + 3600);
    await expectOAuthError(await postForm(tokenUrl, form, auth()), 400, 'invalid_grant');
    const after = await fetch(`${service.url}/user?access_token=${tokens.access_token}`);
    expect(after.status).toBe(401);
    await expectOAuthError(
      await postForm(tokenUrl, { grant_type: 'refresh_token', refresh_token: tokens.refresh_token }, auth()),
      400,
      'invalid_grant',
    );
  });

  it('20 concurrent redemptions of one code: exactly one wins, and its tokens end up revoked', async () => {
    const c = await code();
    const form = { grant_type: 'authorization_code', code: c, redirect_uri: CALLBACK };
    const answers = await Promise.all(Array.from({ length: 20 }, () => postForm(tokenUrl, form, auth())));
    const ok = answers.filter((r) => r.status === 200);
    expect(ok).toHaveLength(1);
    for (const r of answers.filter((a) => a.status !== 200)) await expectOAuthError(r, 400, 'invalid_grant');
    const winner = (await ok[0]!.json()) as { access_token: string; refresh_token: string };
    expect((await fetch(`${service.url}/user?access_token=${winner.access_token}`)).status).toBe(401);
    await expectOAuthError(
      await postForm(tokenUrl, { grant_type: 'refresh_token', refresh_token: winner.refresh_token }, auth()),
      400,
      'invalid_grant',
    );
  });
});

describe('refresh token errors', () => {
  async function passwordTokens(scope?: string) {
    const res = await postForm(
      tokenUrl,
      { grant_type: 'password', username: alice.email, password: PASSWORD, ...(scope ? { scope } : {}) },
      auth(),
    );
    expect(res.status).toBe(200);
    return (await res.json()) as { access_token: string; refresh_token: string };
  }

  it('replaying a rotated refresh token fails and revokes the whole chain (RFC 9700 §4.14)', async () => {
    const first = await passwordTokens();
    const rotated = await postForm(
      tokenUrl,
      { grant_type: 'refresh_token', refresh_token: first.refresh_token },
      auth(),
    );
    expect(rotated.status).toBe(200);
    const second = (await rotated.json()) as { access_token: string; refresh_token: string };
    const replay = await postForm(
      tokenUrl,
      { grant_type: 'refresh_token', refresh_token: first.refresh_token },
      auth(),
    );
    await expectOAuthError(replay, 400, 'invalid_grant');
    // The chain is gone: the newest refresh token and every access token of it.
    await expectOAuthError(
      await postForm(tokenUrl, { grant_type: 'refresh_token', refresh_token: second.refresh_token }, auth()),
      400,
      'invalid_grant',
    );
    for (const t of [first.access_token, second.access_token]) {
      expect((await fetch(`${service.url}/user?access_token=${t}`)).status).toBe(401);
    }
  });

  it('two concurrent refreshes with one token: one rotates, the other is a replay that revokes the chain', async () => {
    const t = await passwordTokens();
    const form = { grant_type: 'refresh_token', refresh_token: t.refresh_token };
    const answers = await Promise.all([postForm(tokenUrl, form, auth()), postForm(tokenUrl, form, auth())]);
    expect(answers.map((r) => r.status).sort()).toEqual([200, 400]);
    const winner = (await answers.find((r) => r.status === 200)!.json()) as { access_token: string };
    expect((await fetch(`${service.url}/user?access_token=${winner.access_token}`)).status).toBe(401);
  });

  it('a wider scope is invalid_scope; another client’s or an access token is invalid_grant', async () => {
    const t = await passwordTokens('a');
    await expectOAuthError(
      await postForm(
        tokenUrl,
        { grant_type: 'refresh_token', refresh_token: t.refresh_token, scope: 'a b' },
        auth(),
      ),
      400,
      'invalid_scope',
    );
    await expectOAuthError(
      await postForm(
        tokenUrl,
        { grant_type: 'refresh_token', refresh_token: t.refresh_token },
        { authorization: basic(other.app.clientId, other.secret) },
      ),
      400,
      'invalid_grant',
    );
    await expectOAuthError(
      await postForm(tokenUrl, { grant_type: 'refresh_token', refresh_token: t.access_token }, auth()),
      400,
      'invalid_grant',
    );
    await expectOAuthError(
      await postForm(tokenUrl, { grant_type: 'refresh_token' }, auth()),
      400,
      'invalid_request',
    );
  });

  it('an expired refresh token is invalid_grant even though its item still exists', async () => {
    await putTokens(service.db, [
      {
        digest: sha256('expired-refresh'),
        kind: 'refresh',
        clientId: reg.app.clientId,
        appId: reg.app.id,
        userId: alice.id,
        grantId: 'g-old',
        expiresAt: nowSeconds() - 5,
      },
    ]);
    await expectOAuthError(
      await postForm(tokenUrl, { grant_type: 'refresh_token', refresh_token: 'expired-refresh' }, auth()),
      400,
      'invalid_grant',
    );
  });
});

describe('brute-force guard shared with sign-in', () => {
  it('5 failures lock the account for 15 minutes, without revealing whether the email exists', async () => {
    const bob = await newUser(service.db, 'bob');
    const attempt = (username: string, password: string) =>
      postForm(tokenUrl, { grant_type: 'password', username, password }, auth());
    const ghost = 'ghost@example.com';
    const answers: string[] = [];
    for (let i = 0; i < 5; i++) {
      answers.push(
        (await expectOAuthError(await attempt(bob.email, 'wrong-password'), 400, 'invalid_grant'))
          .error_description,
      );
      await expectOAuthError(await attempt(ghost, 'wrong-password'), 400, 'invalid_grant');
    }
    // Locked: the right password no longer works, and the answer is the same as for a ghost.
    const locked = await expectOAuthError(await attempt(bob.email, PASSWORD), 400, 'invalid_grant');
    const ghostLocked = await expectOAuthError(await attempt(ghost, PASSWORD), 400, 'invalid_grant');
    expect(locked.error_description).toBe(ghostLocked.error_description);
    expect(answers[0]).not.toBe(locked.error_description);
  });
});
