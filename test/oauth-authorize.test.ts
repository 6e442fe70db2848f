import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setLogoKey } from '../shared/store/applications.js';
import { putLogo } from '../shared/store/logos.js';
import type { User } from '../shared/store/users.js';
import { CALLBACK, newApp, newUser, type Registered, signedIn } from './support/oauth.js';
import { startService, type TestService } from './support/service.js';

/** GET and POST /oauth2/authorize: errors, sign-in redirect, consent, CSRF. Raw HTTP. */
let service: TestService;
let alice: User;
let reg: Registered;
let codeOnly: Registered;

beforeAll(async () => {
  service = await startService();
  alice = await newUser(service.db, 'alice');
  reg = await newApp(service.db, alice.id, { name: 'Shop <&> "quoted"' });
  codeOnly = await newApp(service.db, alice.id, { grantTypes: ['authorization_code'] });
});
afterAll(() => service.close());

function authorize(params: Record<string, string>, headers: Record<string, string> = {}) {
  return fetch(`${service.url}/oauth2/authorize?${new URLSearchParams(params)}`, {
    redirect: 'manual',
    headers,
  });
}

const base = () => ({
  response_type: 'code',
  client_id: reg.app.clientId,
  redirect_uri: CALLBACK,
  state: 's1',
});

describe('errors that must not redirect (RFC 6749 §4.1.2.1)', () => {
  it.each([
    ['unknown client_id', { client_id: 'no-such-client' }],
    ['missing client_id', { client_id: '' }],
    ['missing redirect_uri', { redirect_uri: '' }],
    ['a redirect_uri that differs by a slash', { redirect_uri: `${CALLBACK}/` }],
    ['a redirect_uri on another host', { redirect_uri: 'https://evil.example/callback' }],
  ])('%s: 400 page for browsers, JSON otherwise, never a Location', async (_, change) => {
    const params = Object.fromEntries(Object.entries({ ...base(), ...change }).filter(([, v]) => v !== ''));
    const page = await authorize(params, { accept: 'text/html,application/xhtml+xml' });
    expect(page.status).toBe(400);
    expect(page.headers.get('location')).toBeNull();
    expect(page.headers.get('content-type')).toContain('text/html');
    expect(page.headers.get('content-security-policy')).toContain("script-src 'self'");
    expect(await page.text()).toContain('cannot continue');
    const api = await authorize(params);
    expect(api.status).toBe(400);
    expect(api.headers.get('location')).toBeNull();
    expect(await api.json()).toMatchObject({ error: expect.stringMatching(/^invalid_(request|client)$/) });
  });
});

describe('errors redirected to the client', () => {
  async function errorAt(params: Record<string, string>) {
    const browser = await signedIn(service.db, alice.id);
    const res = await authorize(params, { cookie: browser.cookie });
    expect(res.status).toBe(302);
    return new URL(res.headers.get('location')!);
  }

  it('missing response_type: invalid_request in the query with state', async () => {
    const { response_type: _, ...params } = base();
    const url = await errorAt(params);
    expect(`${url.origin}${url.pathname}`).toBe(CALLBACK);
    expect(url.searchParams.get('error')).toBe('invalid_request');
    expect(url.searchParams.get('error_description')).toBeTruthy();
    expect(url.searchParams.get('state')).toBe('s1');
  });

  it('unknown response_type: unsupported_response_type', async () => {
    // The hybrid flow (OIDC Core §3.3) is not offered; id_token alone is (test/oidc.test.ts).
    const url = await errorAt({ ...base(), response_type: 'code id_token' });
    expect(url.searchParams.get('error')).toBe('unsupported_response_type');
  });

  it('a grant the application has not enabled: unauthorized_client, in the fragment for token', async () => {
    const url = await errorAt({ ...base(), client_id: codeOnly.app.clientId, response_type: 'token' });
    expect(url.search).toBe('');
    const fragment = new URLSearchParams(url.hash.slice(1));
    expect(fragment.get('error')).toBe('unauthorized_client');
    expect(fragment.get('state')).toBe('s1');
  });

  it('a malformed scope: invalid_scope', async () => {
    const url = await errorAt({ ...base(), scope: 'bad\\scope' });
    expect(url.searchParams.get('error')).toBe('invalid_scope');
  });

  it('PKCE plain, or a method without a challenge: invalid_request', async () => {
    const plain = await errorAt({
      ...base(),
      code_challenge: 'x'.repeat(43),
      code_challenge_method: 'plain',
    });
    expect(plain.searchParams.get('error')).toBe('invalid_request');
    const bare = await errorAt({ ...base(), code_challenge_method: 'S256' });
    expect(bare.searchParams.get('error')).toBe('invalid_request');
  });

  it('a repeated parameter: invalid_request', async () => {
    const browser = await signedIn(service.db, alice.id);
    const res = await fetch(`${service.url}/oauth2/authorize?${new URLSearchParams(base())}&state=again`, {
      redirect: 'manual',
      headers: { cookie: browser.cookie },
    });
    expect(new URL(res.headers.get('location')!).searchParams.get('error')).toBe('invalid_request');
  });
});

describe('sign-in and consent', () => {
  it('without a session: 302 to the portal sign-in with a same-origin return path', async () => {
    const res = await authorize(base());
    expect(res.status).toBe(302);
    const location = res.headers.get('location')!;
    expect(location.startsWith('/signin?return=')).toBe(true);
    const back = new URLSearchParams(location.split('?')[1]).get('return')!;
    expect(back.startsWith('/oauth2/authorize?')).toBe(true);
    expect(new URLSearchParams(back.split('?')[1]).get('client_id')).toBe(reg.app.clientId);
  });

  it('shows a consent page naming the app; Deny redirects access_denied; Allow is remembered', async () => {
    const carol = await newUser(service.db, 'carol');
    const browser = await signedIn(service.db, carol.id);
    const page = await authorize(base(), { cookie: browser.cookie, accept: 'text/html' });
    expect(page.status).toBe(200);
    expect(page.headers.get('access-control-allow-origin')).toBeNull();
    const csp = page.headers.get('content-security-policy')!;
    expect(csp).toContain("form-action 'self' http://localhost:9999");
    expect(csp).not.toContain('unsafe-inline');
    const text = await page.text();
    expect(text).toContain('Shop &#60;&#38;&#62; &#34;quoted&#34;'); // escaped, never raw HTML
    expect(text).toContain('http://localhost:9999');
    expect(text).toContain('value="allow"');
    expect(text).toContain('value="deny"');
    expect(text).not.toContain('<script');

    const decide = (decision: string, csrf = browser.csrf) =>
      fetch(`${service.url}/oauth2/authorize`, {
        method: 'POST',
        redirect: 'manual',
        headers: { cookie: browser.cookie, 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ ...base(), csrf_token: csrf, decision }).toString(),
      });

    const forged = await decide('allow', 'forged');
    expect(forged.status).toBe(403);
    expect(forged.headers.get('location')).toBeNull();

    const denied = await decide('deny');
    expect(denied.status).toBe(302);
    const deniedUrl = new URL(denied.headers.get('location')!);
    expect(deniedUrl.searchParams.get('error')).toBe('access_denied');
    expect(deniedUrl.searchParams.get('state')).toBe('s1');
    // Deny is not remembered: the consent page comes back.
    expect((await authorize(base(), { cookie: browser.cookie })).status).toBe(200);

    const allowed = await decide('allow');
    expect(allowed.status).toBe(302);
    const allowedUrl = new URL(allowed.headers.get('location')!);
    expect(allowedUrl.searchParams.get('code')).toBeTruthy();
    expect(allowedUrl.searchParams.get('state')).toBe('s1');

    // Remembered: straight to the callback next time, without a page.
    const again = await authorize(base(), { cookie: browser.cookie });
    expect(again.status).toBe(302);
    expect(again.headers.get('access-control-allow-origin')).toBeNull();
    expect(new URL(again.headers.get('location')!).searchParams.get('code')).toBeTruthy();
  });

  it("the consent page shows the application's logo from a path that serves it", async () => {
    const withLogo = await newApp(service.db, alice.id, { name: 'Logo app' });
    const png = await sharp({ create: { width: 4, height: 4, channels: 3, background: '#0000ff' } })
      .png()
      .toBuffer();
    await setLogoKey(service.db, withLogo.app.id, await putLogo(withLogo.app.id, png));
    const dave = await newUser(service.db, 'dave');
    const browser = await signedIn(service.db, dave.id);
    const page = await authorize(
      { ...base(), client_id: withLogo.app.clientId },
      { cookie: browser.cookie, accept: 'text/html' },
    );
    expect(page.status).toBe(200);
    const src = /<img class="app-logo" src="([^"]+)"/.exec(await page.text())?.[1];
    expect(src).toMatch(/^\/logos\/[A-Za-z0-9._-]+\.png$/);
    const logo = await fetch(`${service.url}${src}`);
    expect(logo.status).toBe(200);
    expect(logo.headers.get('content-type')).toBe('image/png');
    expect(Buffer.from(await logo.arrayBuffer()).equals(png)).toBe(true);
  });

  it('a decision without a session goes to sign-in; a JSON body is refused', async () => {
    const res = await fetch(`${service.url}/oauth2/authorize`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ ...base(), decision: 'allow', csrf_token: 'x' }).toString(),
    });
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toMatch(/^\/signin\?return=%2Foauth2%2Fauthorize%3F/);
    const json = await fetch(`${service.url}/oauth2/authorize`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });
    expect(json.status).toBe(400);
  });
});
