import { createHash } from 'node:crypto';
import { decodeProtectedHeader } from 'jose';
import * as client from 'openid-client';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { idTokenClaims, signJwt } from '../shared/oidc/id-token.js';
import type { User } from '../shared/store/users.js';
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

/**
 * Gatehouse as an OpenID Provider, driven by openid-client (discovery, the code flow with PKCE
 * and nonce, ID token validation with the published keys, UserInfo, introspection), and by raw
 * fetch for the error answers a library would hide.
 */
let service: TestService;
let alice: User;
let shop: Registered;
let other: Registered;
let browser: { cookie: string; csrf: string };
let oidc: client.Configuration;

beforeAll(async () => {
  service = await startService();
  alice = await newUser(service.db, 'alice');
  shop = await newApp(service.db, alice.id, { name: 'Shop' });
  other = await newApp(service.db, alice.id, { name: 'Other' });
  browser = await signedIn(service.db, alice.id);
  oidc = await client.discovery(new URL(service.url), shop.app.clientId, shop.secret, undefined, {
    execute: [client.allowInsecureRequests],
  });
  // Verify ID token signatures against the JWKS, not only the claims.
  client.enableNonRepudiationChecks(oidc);
});
afterAll(() => service.close());

/** The code flow as a relying party runs it; the browser approves the consent page. */
async function codeFlow(scope: string, extra: Record<string, string> = {}) {
  const verifier = client.randomPKCECodeVerifier();
  const nonce = client.randomNonce();
  const state = client.randomState();
  const url = client.buildAuthorizationUrl(oidc, {
    redirect_uri: CALLBACK,
    scope,
    code_challenge: await client.calculatePKCECodeChallenge(verifier),
    code_challenge_method: 'S256',
    nonce,
    state,
    ...extra,
  });
  const callback = await authorizeLocation(service.url, Object.fromEntries(url.searchParams), browser);
  const tokens = await client.authorizationCodeGrant(oidc, callback, {
    pkceCodeVerifier: verifier,
    expectedNonce: nonce,
    expectedState: state,
  });
  return { tokens, nonce };
}

describe('discovery and keys', () => {
  it('serves one metadata document at both well-known paths, naming the OIDC endpoints', async () => {
    const [oidcDoc, oauthDoc] = await Promise.all(
      ['openid-configuration', 'oauth-authorization-server'].map(async (name) => {
        const res = await fetch(`${service.url}/.well-known/${name}`);
        expect(res.status).toBe(200);
        expect(res.headers.get('access-control-allow-origin')).toBe('*');
        return res.json();
      }),
    );
    expect(oidcDoc).toEqual(oauthDoc);
    expect(oidcDoc).toMatchObject({
      issuer: service.url,
      jwks_uri: `${service.url}/.well-known/jwks.json`,
      userinfo_endpoint: `${service.url}/oauth2/userinfo`,
      introspection_endpoint: `${service.url}/oauth2/introspect`,
      end_session_endpoint: `${service.url}/oauth2/logout`,
      subject_types_supported: ['public'],
      id_token_signing_alg_values_supported: ['RS256', 'ES256'],
      request_uri_parameter_supported: false,
    });
    expect(oidcDoc.scopes_supported).toEqual(expect.arrayContaining(['openid', 'profile', 'email']));
  });

  it('publishes public keys only, each with a kid, and caches them briefly', async () => {
    const res = await fetch(`${service.url}/.well-known/jwks.json`);
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('public, max-age=300');
    const { keys } = await res.json();
    expect(keys.length).toBeGreaterThan(0);
    for (const key of keys) {
      expect(key).toMatchObject({ kid: expect.any(String), use: 'sig', alg: 'RS256', kty: 'RSA' });
      for (const secret of ['d', 'p', 'q', 'dp', 'dq', 'qi']) expect(key[secret]).toBeUndefined();
    }
  });
});

describe('the code flow with PKCE (openid-client)', () => {
  it('issues an ID token with the claims its scopes allow, signed with a published key', async () => {
    const { tokens, nonce } = await codeFlow('openid profile email');
    const claims = tokens.claims()!;
    expect(claims).toMatchObject({
      iss: service.url,
      sub: String(alice.id),
      aud: shop.app.clientId,
      nonce,
      name: alice.displayName,
      nickname: alice.nickName,
      email: alice.email,
      email_verified: false,
    });
    expect(claims.exp - claims.iat).toBe(3600);
    expect(Math.abs(claims.auth_time! - Date.now() / 1000)).toBeLessThan(120);
    // OIDC Core §3.1.3.6: at_hash is the left half of SHA-256 of the access token.
    const digest = createHash('sha256').update(tokens.access_token).digest();
    expect(claims.at_hash).toBe(digest.subarray(0, 16).toString('base64url'));
    const { keys } = await (await fetch(`${service.url}/.well-known/jwks.json`)).json();
    const header = decodeProtectedHeader(tokens.id_token!);
    expect(keys.map((k: { kid: string }) => k.kid)).toContain(header.kid);
    expect(header.alg).toBe('RS256');
  });

  it('refreshes through openid-client: new tokens for UserInfo, the old refresh token spent', async () => {
    const { tokens } = await codeFlow('openid profile');
    expect(tokens.refresh_token).toBeTruthy();
    const refreshed = await client.refreshTokenGrant(oidc, tokens.refresh_token!);
    expect(refreshed.access_token).not.toBe(tokens.access_token);
    expect(refreshed.refresh_token).toBeTruthy();
    expect(refreshed.refresh_token).not.toBe(tokens.refresh_token);
    const info = await client.fetchUserInfo(oidc, refreshed.access_token, String(alice.id));
    expect(info).toMatchObject({ sub: String(alice.id), name: alice.displayName });
    // RFC 6749 §10.4 / RFC 9700 §4.14: a rotated refresh token is refused when used again.
    await expect(client.refreshTokenGrant(oidc, tokens.refresh_token!)).rejects.toMatchObject({
      error: 'invalid_grant',
    });
  });

  it('returns the request’s nonce unchanged, so a client expecting another refuses the ID token', async () => {
    const verifier = client.randomPKCECodeVerifier();
    const url = client.buildAuthorizationUrl(oidc, {
      redirect_uri: CALLBACK,
      scope: 'openid',
      code_challenge: await client.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
      nonce: 'the-nonce-sent',
      state: 'st',
    });
    const callback = await authorizeLocation(service.url, Object.fromEntries(url.searchParams), browser);
    // OIDC Core §3.1.3.7 step 11: the client compares the nonce with the one it sent.
    await expect(
      client.authorizationCodeGrant(oidc, callback, {
        pkceCodeVerifier: verifier,
        expectedNonce: 'another-nonce',
        expectedState: 'st',
      }),
    ).rejects.toMatchObject({
      cause: { message: 'unexpected ID Token "nonce" claim value' },
    });
  });

  it('releases only the scopes’ claims: openid alone gives sub and no profile or email', async () => {
    const { tokens } = await codeFlow('openid');
    const claims = tokens.claims()!;
    expect(claims.sub).toBe(String(alice.id));
    expect(claims.name).toBeUndefined();
    expect(claims.email).toBeUndefined();
  });

  it('gives a plain OAuth request (no openid scope) no ID token', async () => {
    const callback = await authorizeLocation(
      service.url,
      { response_type: 'code', client_id: shop.app.clientId, redirect_uri: CALLBACK, scope: 'profile' },
      browser,
    );
    const code = callback.searchParams.get('code')!;
    const res = await postForm(
      `${service.url}/oauth2/token`,
      { grant_type: 'authorization_code', code, redirect_uri: CALLBACK },
      { authorization: basic(shop.app.clientId, shop.secret) },
    );
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body.access_token).toEqual(expect.any(String));
    expect(body.id_token).toBeUndefined();
  });
});

describe('the implicit flow (OIDC Core §3.2)', () => {
  const implicitParams = (responseType: string, extra: Record<string, string> = {}) => ({
    response_type: responseType,
    client_id: shop.app.clientId,
    redirect_uri: CALLBACK,
    scope: 'openid email',
    state: 'is',
    ...extra,
  });

  it('response_type=id_token: a signed ID token in the fragment, with the scopes’ claims (openid-client)', async () => {
    const implicit = await client.discovery(new URL(service.url), shop.app.clientId, undefined, undefined, {
      execute: [client.allowInsecureRequests],
    });
    client.useIdTokenResponseType(implicit);
    const nonce = client.randomNonce();
    const url = client.buildAuthorizationUrl(implicit, {
      redirect_uri: CALLBACK,
      scope: 'openid email',
      nonce,
      state: 'is',
    });
    expect(url.searchParams.get('response_type')).toBe('id_token');
    const callback = await authorizeLocation(service.url, Object.fromEntries(url.searchParams), browser);
    expect(callback.search).toBe('');
    expect(new URLSearchParams(callback.hash.slice(1)).get('access_token')).toBeNull();
    const claims = await client.implicitAuthentication(implicit, callback, nonce, { expectedState: 'is' });
    expect(claims).toMatchObject({
      sub: String(alice.id),
      aud: shop.app.clientId,
      nonce,
      email: alice.email,
    });
    expect(claims.at_hash).toBeUndefined();
  });

  it('response_type="id_token token": both, the ID token binding the access token with at_hash', async () => {
    const callback = await authorizeLocation(
      service.url,
      implicitParams('id_token token', { nonce: 'n-42' }),
      browser,
    );
    const fragment = new URLSearchParams(callback.hash.slice(1));
    const accessToken = fragment.get('access_token')!;
    expect(fragment.get('token_type')).toBe('bearer');
    expect(fragment.get('state')).toBe('is');
    const idToken = fragment.get('id_token')!;
    const claims = JSON.parse(Buffer.from(idToken.split('.')[1]!, 'base64url').toString());
    expect(claims.nonce).toBe('n-42');
    const digest = createHash('sha256').update(accessToken).digest();
    expect(claims.at_hash).toBe(digest.subarray(0, 16).toString('base64url'));
    // The access token works at UserInfo.
    const info = await fetch(`${service.url}/oauth2/userinfo`, {
      headers: { authorization: `Bearer ${accessToken}` },
    });
    expect(await info.json()).toMatchObject({ sub: String(alice.id), email: alice.email });
  });

  it.each([
    ['without a nonce', {}],
    ['without the openid scope', { nonce: 'n', scope: 'email' }],
  ])('refuses an ID token request %s, in the fragment', async (_, extra) => {
    const params = implicitParams('id_token', extra);
    const res = await fetch(`${service.url}/oauth2/authorize?${new URLSearchParams(params)}`, {
      redirect: 'manual',
      headers: { cookie: browser.cookie },
    });
    expect(res.status).toBe(302);
    const location = new URL(res.headers.get('location')!);
    expect(new URLSearchParams(location.hash.slice(1)).get('error')).toBe('invalid_request');
  });
});

describe('UserInfo', () => {
  it('answers the standard claims and Keyrock roles (openid-client, GET)', async () => {
    const { tokens } = await codeFlow('openid profile email');
    const info = await client.fetchUserInfo(oidc, tokens.access_token, String(alice.id));
    expect(info).toEqual({
      sub: String(alice.id),
      name: alice.displayName,
      nickname: alice.nickName,
      preferred_username: alice.nickName,
      email: alice.email,
      email_verified: false,
      roles: [{ id: expect.any(Number), name: 'Provider' }],
      organizations: [],
    });
  });

  it('takes the token in a POST form body (RFC 6750 §2.2) and honours the scopes', async () => {
    const { tokens } = await codeFlow('openid');
    const res = await postForm(`${service.url}/oauth2/userinfo`, { access_token: tokens.access_token });
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body.sub).toBe(String(alice.id));
    expect(body.email).toBeUndefined();
    expect(body.roles).toEqual([{ id: expect.any(Number), name: 'Provider' }]);
  });

  it('refuses a token without openid (403 insufficient_scope), a bad token and none (401)', async () => {
    const plain = await postForm(
      `${service.url}/oauth2/token`,
      { grant_type: 'client_credentials', scope: 'openid' },
      { authorization: basic(shop.app.clientId, shop.secret) },
    );
    const machine = (await plain.json()).access_token as string;
    const noUser = await fetch(`${service.url}/oauth2/userinfo`, {
      headers: { authorization: `Bearer ${machine}` },
    });
    expect(noUser.status).toBe(403);
    expect(noUser.headers.get('www-authenticate')).toContain('error="insufficient_scope"');
    expect(await noUser.json()).toMatchObject({ error: 'insufficient_scope' });

    const bad = await fetch(`${service.url}/oauth2/userinfo`, { headers: { authorization: 'Bearer nope' } });
    expect(bad.status).toBe(401);
    expect(bad.headers.get('www-authenticate')).toContain('error="invalid_token"');

    const none = await fetch(`${service.url}/oauth2/userinfo`, { method: 'POST' });
    expect(none.status).toBe(401);
    expect(none.headers.get('www-authenticate')).toBe('Bearer realm="gatehouse"');
  });
});

describe('introspection (RFC 7662)', () => {
  it('describes a live token to the client it was issued to (openid-client)', async () => {
    const { tokens } = await codeFlow('openid email');
    const answer = await client.tokenIntrospection(oidc, tokens.access_token);
    expect(answer).toMatchObject({
      active: true,
      scope: 'openid email',
      client_id: shop.app.clientId,
      username: alice.email,
      token_type: 'Bearer',
      sub: String(alice.id),
      aud: shop.app.clientId,
      iss: service.url,
    });
    expect(answer.exp! - answer.iat!).toBe(3600);
    const refresh = await client.tokenIntrospection(oidc, tokens.refresh_token!);
    expect(refresh).toMatchObject({ active: true, username: alice.email, sub: String(alice.id) });
    expect(refresh.token_type).toBeUndefined();
  });

  it('says only active: false for another client’s, an unknown and a revoked token', async () => {
    const { tokens } = await codeFlow('openid');
    const asOther = await postForm(
      `${service.url}/oauth2/introspect`,
      { token: tokens.access_token },
      { authorization: basic(other.app.clientId, other.secret) },
    );
    expect(asOther.status).toBe(200);
    expect(asOther.headers.get('cache-control')).toBe('no-store');
    expect(await asOther.json()).toEqual({ active: false });
    expect(await client.tokenIntrospection(oidc, 'unknown-token')).toEqual({ active: false });
    await client.tokenRevocation(oidc, tokens.access_token);
    expect(await client.tokenIntrospection(oidc, tokens.access_token)).toEqual({ active: false });
  });

  it('says active: false for a token past its expiry, and for an ID token', async () => {
    const { tokens } = await codeFlow('openid');
    expect((await client.tokenIntrospection(oidc, tokens.access_token)).active).toBe(true);
    // An ID token is for the client, not a credential (RFC 7662 describes access and refresh tokens).
    expect(await client.tokenIntrospection(oidc, tokens.id_token!)).toEqual({ active: false });
    // The service runs in this process: an hour and a minute later the access token has expired.
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      vi.setSystemTime(Date.now() + 61 * 60_000);
      expect(await client.tokenIntrospection(oidc, tokens.access_token)).toEqual({ active: false });
    } finally {
      vi.useRealTimers();
    }
  });

  it('needs client authentication and a token', async () => {
    const noAuth = await postForm(`${service.url}/oauth2/introspect`, { token: 'x' });
    expect(noAuth.status).toBe(401);
    expect(await noAuth.json()).toMatchObject({ error: 'invalid_client' });
    const wrong = await postForm(
      `${service.url}/oauth2/introspect`,
      { token: 'x' },
      { authorization: basic(shop.app.clientId, 'wrong') },
    );
    expect(wrong.status).toBe(401);
    const missing = await postForm(
      `${service.url}/oauth2/introspect`,
      {},
      { authorization: basic(shop.app.clientId, shop.secret) },
    );
    expect(missing.status).toBe(400);
    expect(await missing.json()).toMatchObject({ error: 'invalid_request' });
  });
});

describe('prompt and max_age (OIDC Core §3.1.2.1)', () => {
  const params = (extra: Record<string, string>) =>
    new URLSearchParams({
      response_type: 'code',
      client_id: shop.app.clientId,
      redirect_uri: CALLBACK,
      scope: 'openid',
      state: 'st',
      ...extra,
    });
  const authorize = (query: URLSearchParams, cookie?: string) =>
    fetch(`${service.url}/oauth2/authorize?${query}`, {
      redirect: 'manual',
      headers: { accept: 'text/html', ...(cookie ? { cookie } : {}) },
    });

  it('prompt=login without a session: one sign-in, coming back without prompt=login', async () => {
    const res = await authorize(params({ prompt: 'login consent', max_age: '0' }));
    const signIn = new URL(res.headers.get('location')!, service.url);
    expect(signIn.pathname).toBe('/signin');
    const back = new URL(signIn.searchParams.get('return')!, service.url);
    expect(back.searchParams.get('prompt')).toBe('consent');
    expect(back.searchParams.get('max_age')).toBeNull();
  });

  it('prompt=none without a session answers login_required to the client', async () => {
    const res = await authorize(params({ prompt: 'none' }));
    expect(res.status).toBe(302);
    const location = new URL(res.headers.get('location')!);
    expect(`${location.origin}${location.pathname}`).toBe(CALLBACK);
    expect(location.searchParams.get('error')).toBe('login_required');
    expect(location.searchParams.get('state')).toBe('st');
  });

  it('prompt=none before consent answers consent_required; after consent it issues a code', async () => {
    const bob = await newUser(service.db, 'bob');
    const bobBrowser = await signedIn(service.db, bob.id);
    const before = await authorize(params({ prompt: 'none' }), bobBrowser.cookie);
    expect(new URL(before.headers.get('location')!).searchParams.get('error')).toBe('consent_required');
    await authorizeLocation(service.url, Object.fromEntries(params({})), bobBrowser);
    const after = await authorize(params({ prompt: 'none' }), bobBrowser.cookie);
    expect(new URL(after.headers.get('location')!).searchParams.get('code')).toEqual(expect.any(String));
  });

  it('prompt=consent shows the consent page again, listing the claims asked for', async () => {
    const res = await authorize(params({ prompt: 'consent', scope: 'openid email' }), browser.cookie);
    expect(res.status).toBe(200);
    const page = await res.text();
    expect(page).toContain('your Gatehouse user id');
    expect(page).toContain('your email address');
    expect(page).not.toContain('your name, nickname');
    expect(page).toContain('name="prompt" value="consent"');
  });

  it('prompt=login sends a signed-in user to sign in again, coming back without prompt=login', async () => {
    const res = await authorize(params({ prompt: 'login', nonce: 'n1' }), browser.cookie);
    expect(res.status).toBe(302);
    const location = new URL(res.headers.get('location')!, service.url);
    expect(location.pathname).toBe('/signin');
    expect(location.searchParams.get('prompt')).toBe('login');
    const back = new URL(location.searchParams.get('return')!, service.url);
    expect(back.pathname).toBe('/oauth2/authorize');
    expect(back.searchParams.get('prompt')).toBeNull();
    expect(back.searchParams.get('nonce')).toBe('n1');
  });

  it('max_age: a sign-in older than max_age signs in again; prompt=none then gets login_required', async () => {
    const carol = await newUser(service.db, 'carol');
    const carolBrowser = await signedIn(service.db, carol.id);
    await authorizeLocation(service.url, Object.fromEntries(params({})), carolBrowser);
    // The session says the user signed in ten minutes ago.
    const sessionId = carolBrowser.cookie.split('=')[1]!;
    await service.db.doc.update({
      TableName: service.db.table,
      Key: { PK: `SESSION#${createHash('sha256').update(sessionId).digest('hex')}`, SK: 'SESSION' },
      UpdateExpression: 'SET authTime = :t',
      ExpressionAttributeValues: { ':t': Math.floor(Date.now() / 1000) - 600 },
    });
    const fresh = await authorize(params({ max_age: '3600' }), carolBrowser.cookie);
    expect(new URL(fresh.headers.get('location')!).searchParams.get('code')).toEqual(expect.any(String));
    const stale = await authorize(params({ max_age: '60' }), carolBrowser.cookie);
    const signIn = new URL(stale.headers.get('location')!, service.url);
    expect(signIn.pathname).toBe('/signin');
    expect(signIn.searchParams.get('prompt')).toBe('login');
    // Back from the fresh sign-in without max_age, which it satisfied (max_age=0 would loop).
    const back = new URL(signIn.searchParams.get('return')!, service.url);
    expect(back.searchParams.get('max_age')).toBeNull();
    expect(back.searchParams.get('client_id')).toBe(shop.app.clientId);
    const silent = await authorize(params({ max_age: '60', prompt: 'none' }), carolBrowser.cookie);
    expect(new URL(silent.headers.get('location')!).searchParams.get('error')).toBe('login_required');
  });

  it.each([
    ['prompt=none with another value', { prompt: 'none login' }],
    ['an unknown prompt value', { prompt: 'sometimes' }],
    ['a max_age that is not a number', { max_age: 'soon' }],
  ])('%s is invalid_request, sent back to the client', async (_, extra) => {
    const res = await authorize(params(extra), browser.cookie);
    expect(res.status).toBe(302);
    expect(new URL(res.headers.get('location')!).searchParams.get('error')).toBe('invalid_request');
  });
});

describe('JWT access tokens (RFC 9068), for applications that choose them', () => {
  let jwtApp: Registered;
  let jwtClient: client.Configuration;
  const decode = (jwt: string) => JSON.parse(Buffer.from(jwt.split('.')[1]!, 'base64url').toString());
  const stored = async (value: string) =>
    (
      await service.db.doc.get({
        TableName: service.db.table,
        Key: { PK: `TOKEN#${createHash('sha256').update(value).digest('hex')}`, SK: 'TOKEN' },
      })
    ).Item;

  beforeAll(async () => {
    jwtApp = await newApp(service.db, alice.id, { name: 'JWT shop', accessTokenFormat: 'jwt' });
    jwtClient = await client.discovery(new URL(service.url), jwtApp.app.clientId, jwtApp.secret, undefined, {
      execute: [client.allowInsecureRequests],
    });
  });

  it('client credentials: a signed at+jwt naming the client, written nowhere, accepted by /user', async () => {
    const tokens = await client.clientCredentialsGrant(jwtClient, { scope: 'things' });
    const header = decodeProtectedHeader(tokens.access_token);
    expect(header).toMatchObject({ typ: 'at+jwt', alg: 'RS256', kid: expect.any(String) });
    const claims = decode(tokens.access_token);
    expect(claims).toMatchObject({
      iss: service.url,
      sub: jwtApp.app.clientId,
      aud: jwtApp.app.clientId,
      client_id: jwtApp.app.clientId,
      scope: 'things',
      jti: expect.any(String),
    });
    expect(claims.exp - claims.iat).toBe(3600);
    expect(claims.roles).toBeUndefined();
    expect(await stored(tokens.access_token)).toBeUndefined();
    const user = await fetch(`${service.url}/user`, {
      headers: { authorization: `Bearer ${tokens.access_token}` },
    });
    expect(user.status).toBe(200);
    expect(await user.json()).toEqual({ app_id: jwtApp.app.clientId, trusted_apps: [] });
    const answer = await client.tokenIntrospection(jwtClient, tokens.access_token);
    expect(answer).toMatchObject({ active: true, sub: jwtApp.app.clientId, client_id: jwtApp.app.clientId });
  });

  it('a user’s JWT carries the roles; /user and UserInfo accept it; an opaque app is unaffected', async () => {
    const verifier = client.randomPKCECodeVerifier();
    const url = client.buildAuthorizationUrl(jwtClient, {
      redirect_uri: CALLBACK,
      scope: 'openid email',
      code_challenge: await client.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
    });
    const callback = await authorizeLocation(service.url, Object.fromEntries(url.searchParams), browser);
    const tokens = await client.authorizationCodeGrant(jwtClient, callback, { pkceCodeVerifier: verifier });
    const claims = decode(tokens.access_token);
    expect(claims).toMatchObject({
      sub: String(alice.id),
      client_id: jwtApp.app.clientId,
      scope: 'openid email',
      roles: [{ id: expect.any(Number), name: 'Provider' }],
      organizations: [],
    });
    expect(tokens.claims()!.at_hash).toBe(
      createHash('sha256').update(tokens.access_token).digest().subarray(0, 16).toString('base64url'),
    );
    // A user's JWT keeps a record, so revocation and introspection find it.
    expect(await stored(tokens.access_token)).toMatchObject({
      clientId: jwtApp.app.clientId,
      userId: alice.id,
    });
    const bearer = { authorization: `Bearer ${tokens.access_token}` };
    const user = await fetch(`${service.url}/user`, { headers: bearer });
    expect(await user.json()).toMatchObject({
      id: alice.id,
      roles: [{ name: 'Provider' }],
      organizations: [],
    });
    const info = await fetch(`${service.url}/oauth2/userinfo`, { headers: bearer });
    expect(await info.json()).toMatchObject({ sub: String(alice.id), email: alice.email });
    // The opaque default stays for other applications.
    const { tokens: opaque } = await codeFlow('openid');
    expect(opaque.access_token.startsWith('eyJ')).toBe(false);
  });

  it('on loopback, accepts a JWT issued under the other loopback name of the same server', async () => {
    const loopback = service.url.replace('localhost', '127.0.0.1');
    const res = await postForm(
      `${loopback}/oauth2/token`,
      { grant_type: 'client_credentials' },
      { authorization: basic(jwtApp.app.clientId, jwtApp.secret) },
    );
    const token = (await res.json()).access_token as string;
    expect(decode(token).iss).toBe(loopback);
    const user = await fetch(`${service.url}/user`, { headers: { authorization: `Bearer ${token}` } });
    expect(user.status).toBe(200);
  });

  it('refuses a JWT whose signature or type is wrong (401 invalid_token)', async () => {
    const tokens = await client.clientCredentialsGrant(jwtClient, {});
    const [h, p, sig] = tokens.access_token.split('.') as [string, string, string];
    const forged = Buffer.from(JSON.stringify({ ...decode(tokens.access_token), sub: '1' })).toString(
      'base64url',
    );
    const { tokens: withId } = await codeFlow('openid');
    for (const value of [`${h}.${forged}.${sig}`, withId.id_token!, `${h}.${p}.${sig.slice(0, -4)}AAAA`]) {
      const res = await fetch(`${service.url}/user`, { headers: { authorization: `Bearer ${value}` } });
      expect(res.status, value.slice(-8)).toBe(401);
      expect(res.headers.get('www-authenticate')).toContain('error="invalid_token"');
      expect(await client.tokenIntrospection(jwtClient, value)).toEqual({ active: false });
    }
  });

  it('revocation: introspection says inactive at once; /user accepts the JWT until it expires', async () => {
    const tokens = await client.genericGrantRequest(jwtClient, 'password', {
      username: alice.email,
      password: PASSWORD,
    });
    await client.tokenRevocation(jwtClient, tokens.access_token);
    expect(await client.tokenIntrospection(jwtClient, tokens.access_token)).toEqual({ active: false });
    const user = await fetch(`${service.url}/user`, {
      headers: { authorization: `Bearer ${tokens.access_token}` },
    });
    expect(user.status).toBe(200);
  });

  it('revoking a client-credentials JWT puts its jti on the deny-list until it expires', async () => {
    const tokens = await client.clientCredentialsGrant(jwtClient, {});
    const { jti, exp } = decode(tokens.access_token);
    // Another client may not revoke it (RFC 7009 §2.1); the token stays active.
    const foreign = await postForm(
      `${service.url}/oauth2/revoke`,
      { token: tokens.access_token },
      { authorization: basic(shop.app.clientId, shop.secret) },
    );
    expect(foreign.status).toBe(400);
    expect(await client.tokenIntrospection(jwtClient, tokens.access_token)).toMatchObject({ active: true });
    await client.tokenRevocation(jwtClient, tokens.access_token);
    expect(await client.tokenIntrospection(jwtClient, tokens.access_token)).toEqual({ active: false });
    const entry = await service.db.doc.get({
      TableName: service.db.table,
      Key: { PK: `JTI#${jti}`, SK: 'REVOKED' },
    });
    expect(entry.Item).toMatchObject({ jti, expiresAt: exp });
    // The lookups do not read the deny-list (docs/decisions.md): /user accepts it until it expires.
    const user = await fetch(`${service.url}/user`, {
      headers: { authorization: `Bearer ${tokens.access_token}` },
    });
    expect(user.status).toBe(200);
  });
});

describe('RP-initiated logout (OpenID Connect RP-Initiated Logout 1.0)', () => {
  const SIGNED_OUT = 'http://localhost:9999/signed-out';
  let rp: Registered;
  let rpClient: client.Configuration;

  beforeAll(async () => {
    rp = await newApp(service.db, alice.id, { name: 'RP', postLogoutRedirectUris: [SIGNED_OUT] });
    rpClient = await client.discovery(new URL(service.url), rp.app.clientId, rp.secret, undefined, {
      execute: [client.allowInsecureRequests],
    });
  });

  /** A browser of its own (ending it must not end the other tests' session) and its ID token. */
  async function signedInWithIdToken(userId = alice.id) {
    const own = await signedIn(service.db, userId);
    const verifier = client.randomPKCECodeVerifier();
    const url = client.buildAuthorizationUrl(rpClient, {
      redirect_uri: CALLBACK,
      scope: 'openid',
      code_challenge: await client.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
    });
    const callback = await authorizeLocation(service.url, Object.fromEntries(url.searchParams), own);
    const tokens = await client.authorizationCodeGrant(rpClient, callback, { pkceCodeVerifier: verifier });
    return { browser: own, idToken: tokens.id_token! };
  }
  const visit = (url: URL | string, cookie: string) =>
    fetch(url, { redirect: 'manual', headers: { cookie, accept: 'text/html' } });
  const signedInAs = async (cookie: string) =>
    (await (await fetch(`${service.url}/api/session`, { headers: { cookie } })).json()).user;
  const clearsCookie = (res: Response) =>
    expect(res.headers.getSetCookie().join('\n')).toMatch(/^gatehouse_session=; .*Max-Age=0/);

  it('with a valid id_token_hint: ends the session, clears the cookie, returns to the registered URI with state', async () => {
    const { browser: own, idToken } = await signedInWithIdToken();
    const url = client.buildEndSessionUrl(rpClient, {
      id_token_hint: idToken,
      post_logout_redirect_uri: SIGNED_OUT,
      state: 'bye',
    });
    expect(url.pathname).toBe('/oauth2/logout');
    const res = await visit(url, own.cookie);
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toBe(`${SIGNED_OUT}?state=bye`);
    clearsCookie(res);
    expect(await signedInAs(own.cookie)).toBeNull();
  });

  it('accepts an expired ID token as the hint, and a POST form as well as a GET', async () => {
    const own = await signedIn(service.db, alice.id);
    const past = Math.floor(Date.now() / 1000) - 7200;
    const expired = await signJwt(
      idTokenClaims({
        issuer: service.url,
        clientId: rp.app.clientId,
        subject: String(alice.id),
        lifetime: 60,
        now: past,
      }),
    );
    const res = await fetch(`${service.url}/oauth2/logout`, {
      method: 'POST',
      redirect: 'manual',
      headers: { cookie: own.cookie, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ id_token_hint: expired, post_logout_redirect_uri: SIGNED_OUT }).toString(),
    });
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toBe(SIGNED_OUT);
    expect(await signedInAs(own.cookie)).toBeNull();
  });

  it('never redirects to a URI the client did not register: a plain signed-out page', async () => {
    const { browser: own, idToken } = await signedInWithIdToken();
    for (const uri of ['https://evil.example/', `${SIGNED_OUT}/`, CALLBACK]) {
      const res = await visit(
        `${service.url}/oauth2/logout?${new URLSearchParams({ id_token_hint: idToken, post_logout_redirect_uri: uri })}`,
        own.cookie,
      );
      expect(res.status, uri).toBe(200);
      expect(res.headers.get('location')).toBeNull();
      expect(res.headers.get('cache-control')).toBe('no-store');
      expect(await res.text()).toContain('You are signed out');
      clearsCookie(res);
    }
    expect(await signedInAs(own.cookie)).toBeNull();
    // Another client's registered URI is not this client's.
    const other = await visit(
      `${service.url}/oauth2/logout?${new URLSearchParams({ client_id: shop.app.clientId, post_logout_redirect_uri: SIGNED_OUT })}`,
      '',
    );
    expect(other.status).toBe(200);
  });

  it('without a valid hint asks first: a cross-site GET or POST cannot sign the user out', async () => {
    const own = await signedIn(service.db, alice.id);
    const { idToken: bobsToken } = await signedInWithIdToken((await newUser(service.db, 'bob')).id);
    const jwtApp = await newApp(service.db, alice.id, { accessTokenFormat: 'jwt' });
    const accessJwt = (
      await (
        await postForm(
          `${service.url}/oauth2/token`,
          { grant_type: 'client_credentials' },
          { authorization: basic(jwtApp.app.clientId, jwtApp.secret) },
        )
      ).json()
    ).access_token as string;
    const requests: Record<string, string>[] = [
      { client_id: rp.app.clientId, post_logout_redirect_uri: SIGNED_OUT },
      { id_token_hint: bobsToken }, // another user's ID token
      { id_token_hint: accessJwt }, // an access token is no ID token
      { id_token_hint: 'not.a.jwt' },
    ];
    for (const params of requests) {
      const res = await visit(`${service.url}/oauth2/logout?${new URLSearchParams(params)}`, own.cookie);
      expect(res.status).toBe(200);
      expect(res.headers.getSetCookie()).toEqual([]);
      expect(await res.text()).toContain('Sign out of Gatehouse?');
    }
    // A forged form without the session's CSRF token gets the same question.
    const forged = await fetch(`${service.url}/oauth2/logout`, {
      method: 'POST',
      redirect: 'manual',
      headers: { cookie: own.cookie, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ csrf_token: 'guess' }).toString(),
    });
    expect(await forged.text()).toContain('Sign out of Gatehouse?');
    expect((await signedInAs(own.cookie))?.id).toBe(alice.id);
  });

  it('the confirmation posts back with the CSRF token, then ends the session and redirects', async () => {
    const own = await signedIn(service.db, alice.id);
    const params = { client_id: rp.app.clientId, post_logout_redirect_uri: SIGNED_OUT, state: 's1' };
    const page = await visit(`${service.url}/oauth2/logout?${new URLSearchParams(params)}`, own.cookie);
    const text = await page.text();
    expect(text).toContain('<strong>RP</strong> asks to sign you out');
    expect(page.headers.get('content-security-policy')).toContain("form-action 'self' http://localhost:9999");
    const fields = Object.fromEntries(
      [...text.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)].map((m) => [m[1]!, m[2]!]),
    );
    expect(fields).toEqual({ ...params, csrf_token: own.csrf });
    const res = await fetch(`${service.url}/oauth2/logout`, {
      method: 'POST',
      redirect: 'manual',
      headers: { cookie: own.cookie, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(fields).toString(),
    });
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toBe(`${SIGNED_OUT}?state=s1`);
    clearsCookie(res);
    expect(await signedInAs(own.cookie)).toBeNull();
  });

  it('with no session, goes straight to the registered URI (or the signed-out page)', async () => {
    const res = await visit(
      `${service.url}/oauth2/logout?${new URLSearchParams({ client_id: rp.app.clientId, post_logout_redirect_uri: SIGNED_OUT })}`,
      '',
    );
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toBe(SIGNED_OUT);
    const bare = await visit(`${service.url}/oauth2/logout`, '');
    expect(bare.status).toBe(200);
    expect(await bare.text()).toContain('You are signed out');
  });
});
