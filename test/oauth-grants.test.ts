import * as oauth from 'oauth4webapi';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { User } from '../shared/store/users.js';
import {
  authorizeLocation,
  CALLBACK,
  discover,
  insecure,
  newApp,
  newUser,
  PASSWORD,
  type Registered,
  signedIn,
} from './support/oauth.js';
import { startService, type TestService } from './support/service.js';

/** Every grant through the local server with a real OAuth client library (oauth4webapi). */
let service: TestService;
let as: oauth.AuthorizationServer;
let alice: User;
let reg: Registered;

beforeAll(async () => {
  service = await startService();
  as = await discover(service.url);
  alice = await newUser(service.db, 'alice');
  reg = await newApp(service.db, alice.id);
});
afterAll(() => service.close());

async function userInfo(accessToken: string) {
  const res = await oauth.protectedResourceRequest(
    accessToken,
    'GET',
    new URL(`${service.url}/user`),
    undefined,
    undefined,
    insecure,
  );
  return { status: res.status, body: await res.json() };
}

describe('discovery (RFC 8414)', () => {
  it('describes the endpoints a client needs', () => {
    expect(as.issuer).toBe(service.url);
    expect(as.token_endpoint).toBe(`${service.url}/oauth2/token`);
    expect(as.authorization_endpoint).toBe(`${service.url}/oauth2/authorize`);
    expect(as.revocation_endpoint).toBe(`${service.url}/oauth2/revoke`);
    expect(as.code_challenge_methods_supported).toEqual(['S256']);
    expect(as.grant_types_supported).toEqual(
      expect.arrayContaining([
        'authorization_code',
        'implicit',
        'password',
        'client_credentials',
        'refresh_token',
      ]),
    );
    expect(as.response_types_supported).toEqual(['code', 'token', 'id_token', 'id_token token']);
    expect(as.token_endpoint_auth_methods_supported).toContain('client_secret_basic');
  });
});

describe('authorization code grant with PKCE', () => {
  it('issues a code, exchanges it for tokens, and the token reads /user', async () => {
    const browser = await signedIn(service.db, alice.id);
    const verifier = oauth.generateRandomCodeVerifier();
    const state = oauth.generateRandomState();
    const location = await authorizeLocation(
      service.url,
      {
        response_type: 'code',
        client_id: reg.app.clientId,
        redirect_uri: CALLBACK,
        state,
        code_challenge: await oauth.calculatePKCECodeChallenge(verifier),
        code_challenge_method: 'S256',
      },
      browser,
    );
    expect(`${location.origin}${location.pathname}`).toBe(CALLBACK);
    const params = oauth.validateAuthResponse(as, reg.client, location, state);
    expect(params.get('code')!.length).toBeGreaterThanOrEqual(22); // ≥ 128 bits in base64url
    const res = await oauth.authorizationCodeGrantRequest(
      as,
      reg.client,
      oauth.ClientSecretBasic(reg.secret),
      params,
      CALLBACK,
      verifier,
      insecure,
    );
    expect(res.headers.get('content-type')).toBe('application/json;charset=UTF-8');
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(res.headers.get('pragma')).toBe('no-cache');
    const tokens = await oauth.processAuthorizationCodeResponse(as, reg.client, res);
    expect(tokens.token_type).toBe('bearer');
    expect(tokens.expires_in).toBe(3600);
    expect(tokens.refresh_token).toBeTruthy();
    expect(tokens.access_token.length).toBeGreaterThanOrEqual(43); // 256 bits in base64url
    const me = await userInfo(tokens.access_token);
    expect(me.status).toBe(200);
    expect(me.body).toMatchObject({ id: alice.id, email: alice.email, displayName: alice.displayName });
  });

  it('works without PKCE, with client_secret_post, and echoes the scope', async () => {
    const browser = await signedIn(service.db, alice.id);
    const location = await authorizeLocation(
      service.url,
      { response_type: 'code', client_id: reg.app.clientId, redirect_uri: CALLBACK, scope: 'profile roles' },
      browser,
    );
    const params = oauth.validateAuthResponse(as, reg.client, location, oauth.expectNoState);
    const res = await oauth.authorizationCodeGrantRequest(
      as,
      reg.client,
      oauth.ClientSecretPost(reg.secret),
      params,
      CALLBACK,
      oauth.nopkce,
      insecure,
    );
    const tokens = await oauth.processAuthorizationCodeResponse(as, reg.client, res);
    expect(tokens.scope).toBe('profile roles');
  });
});

describe('implicit grant', () => {
  it('redirects with the access token in the fragment and no refresh token', async () => {
    const browser = await signedIn(service.db, alice.id);
    const location = await authorizeLocation(
      service.url,
      { response_type: 'token', client_id: reg.app.clientId, redirect_uri: CALLBACK, state: 'xyz' },
      browser,
    );
    expect(location.search).toBe('');
    const fragment = new URLSearchParams(location.hash.slice(1));
    expect(fragment.get('token_type')).toBe('bearer');
    expect(fragment.get('expires_in')).toBe('3600');
    expect(fragment.get('state')).toBe('xyz');
    expect(fragment.has('refresh_token')).toBe(false);
    const me = await userInfo(fragment.get('access_token')!);
    expect(me.body).toMatchObject({ id: alice.id });
  });
});

describe('password grant', () => {
  it('issues tokens for the user’s email and password', async () => {
    const res = await oauth.genericTokenEndpointRequest(
      as,
      reg.client,
      oauth.ClientSecretBasic(reg.secret),
      'password',
      { username: alice.email, password: PASSWORD },
      insecure,
    );
    const tokens = await oauth.processGenericTokenEndpointResponse(as, reg.client, res);
    expect(tokens.refresh_token).toBeTruthy();
    expect(tokens.scope).toBeUndefined();
    expect((await userInfo(tokens.access_token)).body).toMatchObject({
      id: alice.id,
      roles: [{ id: expect.any(Number), name: 'Provider' }],
    });
  });
});

describe('client credentials grant', () => {
  it('issues an access token without refresh token; /user answers with its application only', async () => {
    const res = await oauth.clientCredentialsGrantRequest(
      as,
      reg.client,
      oauth.ClientSecretBasic(reg.secret),
      {},
      insecure,
    );
    const tokens = await oauth.processClientCredentialsResponse(as, reg.client, res);
    expect(tokens.refresh_token).toBeUndefined();
    expect(tokens.expires_in).toBe(3600);
    const me = await userInfo(tokens.access_token);
    // No user: Keyrock's answer names the application (model_oauth_server.js search_app_info).
    expect(me).toEqual({ status: 200, body: { app_id: reg.app.clientId, trusted_apps: [] } });
  });
});

describe('refresh token grant', () => {
  it('rotates: each use returns a new refresh token that works', async () => {
    const first = await oauth.processGenericTokenEndpointResponse(
      as,
      reg.client,
      await oauth.genericTokenEndpointRequest(
        as,
        reg.client,
        oauth.ClientSecretBasic(reg.secret),
        'password',
        { username: alice.email, password: PASSWORD, scope: 'a b' },
        insecure,
      ),
    );
    const second = await oauth.processRefreshTokenResponse(
      as,
      reg.client,
      await oauth.refreshTokenGrantRequest(
        as,
        reg.client,
        oauth.ClientSecretBasic(reg.secret),
        first.refresh_token!,
        insecure,
      ),
    );
    expect(second.refresh_token).toBeTruthy();
    expect(second.refresh_token).not.toBe(first.refresh_token);
    expect(second.scope).toBe('a b');
    const third = await oauth.processRefreshTokenResponse(
      as,
      reg.client,
      await oauth.refreshTokenGrantRequest(
        as,
        reg.client,
        oauth.ClientSecretBasic(reg.secret),
        second.refresh_token!,
        {
          ...insecure,
          additionalParameters: { scope: 'a' },
        },
      ),
    );
    expect(third.scope).toBe('a');
    expect((await userInfo(third.access_token)).body).toMatchObject({ id: alice.id });
  });
});
