import * as oauth from 'oauth4webapi';
import { expect } from 'vitest';
import { registerUser } from '../../shared/domain/accounts.js';
import { registerApplication } from '../../shared/domain/applications.js';
import type { Application } from '../../shared/store/applications.js';
import type { Db } from '../../shared/store/db.js';
import { createSession } from '../../shared/store/sessions.js';
import type { User } from '../../shared/store/users.js';

export const PASSWORD = 'correct horse battery';
export const CALLBACK = 'http://localhost:9999/callback';

export interface Registered {
  app: Application;
  secret: string;
  /** oauth4webapi's client object. */
  client: oauth.Client;
}

let seq = 0;

/** A user with the test password; emails are unique per call. */
export async function newUser(db: Db, name = 'user'): Promise<User> {
  seq++;
  return registerUser(
    db,
    { email: `${name}${seq}-${Date.now()}@example.com`, password: PASSWORD, displayName: `${name} ${seq}` },
    4,
  );
}

export async function newApp(
  db: Db,
  ownerId: number,
  extra: {
    grantTypes?: string[];
    callbackUrl?: string;
    name?: string;
    accessTokenFormat?: string;
    postLogoutRedirectUris?: string[];
  } = {},
): Promise<Registered> {
  const owner = await db.doc.get({
    TableName: db.table,
    Key: { PK: `USER#${ownerId}`, SK: 'PROFILE' },
  });
  const { app, clientSecret } = await registerApplication(
    db,
    { kind: 'user', userId: ownerId, actorId: owner.Item!.actorId as number },
    {
      name: extra.name ?? 'Test app',
      description: 'An app for tests',
      url: 'http://localhost:9999',
      callbackUrl: extra.callbackUrl ?? CALLBACK,
      grantTypes: extra.grantTypes,
      accessTokenFormat: extra.accessTokenFormat,
      postLogoutRedirectUris: extra.postLogoutRedirectUris,
    },
  );
  return { app, secret: clientSecret, client: { client_id: app.clientId } };
}

/** The authorization server metadata through RFC 8414 discovery, as a real client does it. */
export async function discover(baseUrl: string): Promise<oauth.AuthorizationServer> {
  const issuer = new URL(baseUrl);
  const res = await oauth.discoveryRequest(issuer, {
    algorithm: 'oauth2',
    [oauth.allowInsecureRequests]: true,
  });
  return oauth.processDiscoveryResponse(issuer, res);
}

export const insecure = { [oauth.allowInsecureRequests]: true } as const;

/** A signed-in browser: the session cookie and its CSRF token. */
export async function signedIn(db: Db, userId: number): Promise<{ cookie: string; csrf: string }> {
  const { id, session } = await createSession(db, userId, 3600);
  return { cookie: `gatehouse_session=${id}`, csrf: session.csrfToken };
}

export function basic(clientId: string, secret: string): string {
  return `Basic ${Buffer.from(`${clientId}:${secret}`).toString('base64')}`;
}

/** POST a form to the token endpoint with raw fetch. */
export function postForm(
  url: string,
  form: Record<string, string>,
  headers: Record<string, string> = {},
): Promise<Response> {
  return fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
    body: new URLSearchParams(form).toString(),
  });
}

/**
 * Runs /oauth2/authorize as a browser that has already approved the app (or approves it now) and
 * returns the Location of the final redirect.
 */
export async function authorizeLocation(
  baseUrl: string,
  params: Record<string, string>,
  browser: { cookie: string; csrf: string },
): Promise<URL> {
  const url = `${baseUrl}/oauth2/authorize?${new URLSearchParams(params)}`;
  let res = await fetch(url, {
    redirect: 'manual',
    headers: { cookie: browser.cookie, accept: 'text/html' },
  });
  if (res.status === 200) {
    // The consent page: approve.
    res = await fetch(`${baseUrl}/oauth2/authorize`, {
      method: 'POST',
      redirect: 'manual',
      headers: { cookie: browser.cookie, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ ...params, csrf_token: browser.csrf, decision: 'allow' }).toString(),
    });
  }
  if (res.status !== 302) throw new Error(`authorize answered ${res.status}: ${await res.text()}`);
  return new URL(res.headers.get('location')!);
}

/**
 * The code flow for `scope=openid` by a signed-in browser (consenting if asked): authorize, then
 * the code at the token endpoint with client_secret_basic. Fails the test unless the token
 * endpoint answers 200; returns its body.
 */
export async function openidCodeTokens(
  baseUrl: string,
  client: { clientId: string; secret: string },
  browser: { cookie: string; csrf: string },
  nonce: string,
): Promise<{ id_token: string; access_token: string }> {
  const location = await authorizeLocation(
    baseUrl,
    {
      response_type: 'code',
      client_id: client.clientId,
      redirect_uri: CALLBACK,
      scope: 'openid',
      nonce,
      state: 's',
    },
    browser,
  );
  const res = await postForm(
    `${baseUrl}/oauth2/token`,
    { grant_type: 'authorization_code', code: location.searchParams.get('code')!, redirect_uri: CALLBACK },
    { authorization: basic(client.clientId, client.secret) },
  );
  expect(res.status).toBe(200);
  return (await res.json()) as { id_token: string; access_token: string };
}
