import { mkdtempSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildPortal, JS_BUDGET_BYTES, measurePortal } from '../portal/build.js';
import { registerApplication } from '../shared/domain/applications.js';
import { createUser } from '../shared/store/users.js';
import { type Chromium, launchChromium } from './support/browser.js';
import { startService, type TestService } from './support/service.js';

/**
 * The portal driven in Debian's Chromium, as a person would: every flow of the portal issue, the
 * OAuth authorization code flow through the real sign-in and consent pages, CSP violations and
 * layout at 1280 and 375 px. Screenshots land in $GATEHOUSE_SHOTS or a temp folder.
 */
let service: TestService;
let browser: Chromium;
const shots = process.env.GATEHOUSE_SHOTS ?? mkdtempSync(join(tmpdir(), 'gatehouse-shots-'));

beforeAll(async () => {
  await buildPortal();
  service = await startService();
  browser = await launchChromium({ clipboard: true });
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await service?.close();
  console.log(`portal screenshots: ${shots}`);
});

/** Screenshots at 1280 and 375 px; at 375 px nothing may stick out sideways. */
async function snap(page: Page, name: string) {
  await page.screenshot({ path: join(shots, `${name}-1280.png`), fullPage: true });
  await page.setViewportSize({ width: 375, height: 812 });
  await page.waitForTimeout(150);
  await page.screenshot({ path: join(shots, `${name}-375.png`), fullPage: true });
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow, `${name} is wider than 375 px`).toBeLessThanOrEqual(0);
  await page.setViewportSize({ width: 1280, height: 900 });
}

/** Waits for what a person would see; pages render asynchronously after each API answer. */
function poll<T>(fn: () => T | Promise<T>) {
  return expect.poll(fn, { timeout: 15_000, interval: 100 });
}

function heading(page: Page) {
  return page.getByRole('heading', { level: 1 });
}

/** A 600×400 PNG: left half red, right half blue, so the saved logo shows where the crop was. */
function twoColourPng(): Promise<Buffer> {
  const red = { r: 220, g: 20, b: 20 };
  const blue = { r: 20, g: 40, b: 220 };
  return sharp({ create: { width: 600, height: 400, channels: 3, background: red } })
    .composite([
      {
        input: { create: { width: 300, height: 400, channels: 3, background: blue } },
        left: 300,
        top: 0,
      },
    ])
    .png()
    .toBuffer();
}

describe('the portal in Chromium', () => {
  it('ships at most 100 KB of gzipped JavaScript and serves pages with the strict CSP', async () => {
    const size = await measurePortal();
    console.log(`portal JavaScript: ${size.raw} bytes, ${size.gzip} bytes gzipped`);
    expect(size.gzip).toBeLessThanOrEqual(JS_BUDGET_BYTES);
    const res = await fetch(`${service.url}/signin`, { headers: { accept: 'text/html' } });
    const csp = res.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toContain('unsafe-inline');
    expect(csp).toContain("frame-ancestors 'none'");
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('referrer-policy')).toBeTruthy();
    // The CSP watch used below can fail: an injected <style> is refused and reported.
    const page = await browser.context.newPage();
    const seen: string[] = [];
    page.on('console', (m) => seen.push(m.text()));
    await page.goto(`${service.url}/signin`);
    await page.evaluate(() => {
      const style = document.createElement('style');
      style.textContent = 'body { color: red }';
      document.head.append(style);
    });
    await poll(() => seen.some((t) => t.startsWith('CSP violation: style-src'))).toBe(true);
    await page.close();
  });

  it('walks every portal flow: sign up and in, three-step registration, roles, authorizations, organizations, acting', async () => {
    await createUser(service.db, {
      email: 'bob@example.com',
      nickName: 'bob',
      displayName: 'Bob',
      passwordHash: 'unused',
    });
    const page = await browser.openPage();

    // Signed out, the portal sends a person to sign in; from there, to sign up.
    await page.goto(`${service.url}/`);
    await poll(() => heading(page).textContent()).toBe('Sign in');
    await snap(page, '01-sign-in');
    await page.getByRole('link', { name: 'Create an account' }).click();
    await poll(() => heading(page).textContent()).toBe('Create an account');
    await page.getByLabel('Email').fill('alice@example.com');
    await page.getByLabel('Display name').fill('Alice');
    await page.getByLabel('Password').fill('short');
    await page.getByRole('button', { name: 'Create account' }).click();
    // The server's message appears next to the password field.
    await expect
      .poll(() => page.locator('.field.has-error .field-error').textContent())
      .toBe('password must be at least 8 characters.');
    await snap(page, '02-sign-up-error');
    await page.getByLabel('Password').fill('alice-password');
    await page.getByRole('button', { name: 'Create account' }).click();
    await expect
      .poll(() => page.getByRole('status').first().textContent())
      .toContain('Your account is ready');

    await page.getByLabel('Email').fill('alice@example.com');
    await page.getByLabel('Password').fill('alice-password');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await poll(() => heading(page).textContent()).toBe('Your applications');
    expect(await page.getByTestId('acting').textContent()).toContain('Signed in as Alice');

    // Step 1: details, then the credentials (secret shown once, with a copy button).
    await page.getByRole('link', { name: 'Register an application' }).click();
    await poll(() => heading(page).textContent()).toBe('Register an application');
    await page.getByLabel('Name').fill('Shop');
    await page.getByLabel('Description').fill('An online shop');
    await page.getByLabel('URL', { exact: true }).fill('https://shop.example.com');
    await page.getByLabel('Callback URL').fill('not a url');
    await page.getByRole('button', { name: 'Register and continue' }).click();
    await expect
      .poll(() => page.locator('.field.has-error').textContent())
      .toContain('callbackUrl must be an absolute http(s) URL.');
    await snap(page, '03-register-step1');
    await page.getByLabel('Callback URL').fill('https://shop.example.com/callback');
    await page.getByRole('button', { name: 'Register and continue' }).click();
    await page.getByRole('heading', { name: 'Client credentials' }).waitFor();
    const secret = (await page.locator('code.secret').nth(1).textContent()) ?? '';
    expect(secret).toMatch(/^[\w-]{40,}$/);
    await page.getByRole('button', { name: 'Copy client secret' }).click();
    await poll(() => page.evaluate(() => navigator.clipboard.readText())).toBe(secret);

    // Step 2: a real PNG, re-framed in the cropper onto its blue half, saved with progress.
    await page.getByLabel('Logo image').setInputFiles({
      name: 'logo.png',
      mimeType: 'image/png',
      buffer: await twoColourPng(),
    });
    // The cropper is ready (its frame placed) when Save is enabled.
    await poll(() => page.getByRole('button', { name: 'Save logo' }).isEnabled()).toBe(true);
    // Screenshots change the viewport's width, and the cropper re-lays its frame out on every
    // resize: shoot before re-framing, so the frame saved is the one dragged.
    await snap(page, '04-register-step2-cropper');
    // Mouse coordinates are viewport coordinates: bring the whole cropper on screen first.
    await page.locator('.crop-area').scrollIntoViewIfNeeded();
    const shrink = await page.locator('.cropper-point.point-se').boundingBox();
    const face = page.locator('.cropper-face');
    const box = await face.boundingBox();
    expect(shrink && box).toBeTruthy();
    // Shrink the frame to about 40 % of its size, then drag it to the right edge of the image.
    await page.mouse.move(shrink!.x + shrink!.width / 2, shrink!.y + shrink!.height / 2);
    await page.mouse.down();
    await page.mouse.move(box!.x + box!.width * 0.4, box!.y + box!.height * 0.4, { steps: 8 });
    await page.mouse.up();
    const small = (await face.boundingBox())!;
    expect(small.width).toBeLessThan(box!.width / 2);
    const canvas = (await page.locator('.cropper-canvas').boundingBox())!;
    const from = { x: small.x + small.width / 2, y: small.y + small.height / 2 };
    await page.mouse.move(from.x, from.y);
    await page.mouse.down();
    await page.mouse.move(canvas.x + canvas.width - small.width / 2 - 2, from.y, { steps: 10 });
    await page.mouse.up();
    const moved = (await face.boundingBox())!;
    expect(moved.x).toBeGreaterThan(canvas.x + canvas.width / 2);
    await page.getByRole('button', { name: 'Save logo' }).click();
    await page.getByText('Logo saved.').waitFor();
    const logoSrc = await page.locator('img.logo.large').getAttribute('src');
    expect(logoSrc).toMatch(/^\/logos\/\d+-[\w-]+\.png$/);
    const logo = Buffer.from(await (await fetch(`${service.url}${logoSrc}`)).arrayBuffer());
    const meta = await sharp(logo).metadata();
    expect(meta).toMatchObject({ format: 'png', width: 256, height: 256 });
    const { channels } = await sharp(logo).stats();
    // Cropped from the blue half only: blue dominates, hardly any red.
    expect(channels[2]!.mean).toBeGreaterThan(180);
    expect(channels[0]!.mean).toBeLessThan(30);
    await page.getByRole('button', { name: 'Continue' }).click();

    // Step 3: a role and a permission, switched on for the role.
    await page.getByLabel('Role name').fill('Reader');
    await page.getByRole('button', { name: 'Add role' }).click();
    await page.getByRole('group', { name: 'Reader' }).waitFor();
    await page.getByLabel('Permission name').fill('Read orders');
    await page.getByLabel('Resource path').fill('/orders');
    await page.getByLabel('HTTP verb').selectOption('GET');
    await page.getByRole('button', { name: 'Add permission' }).click();
    const readerSwitch = page.getByRole('group', { name: 'Reader' }).getByLabel('Read orders GET /orders');
    await readerSwitch.check();
    await poll(() => readerSwitch.isEnabled()).toBe(true);
    await snap(page, '05-register-step3-roles');
    await page.getByRole('button', { name: 'Finish' }).click();

    // The application page: the switch was saved, the logo is shown; authorize Bob as Purchaser.
    await poll(() => heading(page).textContent()).toBe('Shop');
    expect(
      await page.getByRole('group', { name: 'Reader' }).getByLabel('Read orders GET /orders').isChecked(),
    ).toBe(true);
    expect(await page.locator('.title-row img.logo').getAttribute('src')).toBe(logoSrc);
    await page.getByLabel('Email or nickName').fill('bob@example.com');
    await page
      .locator('form', { hasText: 'Authorize someone' })
      .getByLabel('Role')
      .selectOption({ label: 'Purchaser' });
    await page.getByRole('button', { name: 'Authorize' }).click();
    await page.getByText('Bob <bob@example.com>').waitFor();
    await snap(page, '06-application-page');
    // Edit the details, and reset the secret (after a confirmation): the new one is shown once.
    await page.getByRole('button', { name: 'Edit details' }).click();
    await page.getByLabel('Description', { exact: true }).fill('A better shop');
    // The access token format (RFC 9068 JWTs or opaque values) is the owner's choice.
    await page.getByLabel('Access tokens').selectOption('jwt');
    // Keyrock's token types are another choice: clients ask for a jwt token with scope=jwt, signed
    // with the application's own secret, which the page shows on request (for its PEP proxy).
    await page.getByRole('checkbox', { name: /^jwt:/ }).check();
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.getByText('A better shop').waitFor();
    await page.getByText('JWT (RFC 9068').waitFor();
    await page.getByText('bearer, jwt').waitFor();
    expect(await page.getByText(/^[0-9a-f]{64}$/).count()).toBe(0);
    await page.getByRole('button', { name: 'Show JWT secret' }).click();
    expect(await page.getByText(/^[0-9a-f]{64}$/).count()).toBe(1);
    await page.getByRole('button', { name: 'Reset client secret' }).click();
    await page.getByRole('button', { name: 'Reset secret' }).click();
    await page.getByRole('heading', { name: 'Client credentials' }).waitFor();
    const newSecret = await page.locator('code.secret').nth(1).textContent();
    expect(newSecret).toMatch(/^[\w-]{40,}$/);
    expect(newSecret).not.toBe(secret);

    // An organization with Bob as a member.
    await page.getByRole('link', { name: 'Organizations' }).click();
    await poll(() => heading(page).textContent()).toBe('Organizations');
    await page.getByLabel('Name').fill('Acme');
    await page.getByLabel('Description').fill('Tools and more');
    await page.getByRole('button', { name: 'Create organization' }).click();
    await page.getByRole('link', { name: 'Acme' }).click();
    await poll(() => heading(page).textContent()).toBe('Acme');
    await page.getByLabel('Email or nickName').fill('bob');
    await page.getByRole('button', { name: 'Add member' }).click();
    await page.getByText('bob@example.com').waitFor();
    await snap(page, '07-organization');

    // Acting as Acme: its (empty) list, a new application owned by it.
    await page.getByRole('button', { name: 'Act as Acme' }).click();
    await poll(() => heading(page).textContent()).toBe('Applications of Acme');
    expect(await page.getByTestId('acting').textContent()).toContain('Acting on behalf of Acme');
    await page.getByRole('link', { name: 'Register an application' }).click();
    await poll(() => page.getByText('It will belong to Acme').count()).toBe(1);
    await page.getByLabel('Name').fill('Acme portal');
    await page.getByLabel('Description').fill('For Acme customers');
    await page.getByLabel('URL', { exact: true }).fill('https://acme.example.com');
    await page.getByLabel('Callback URL').fill('https://acme.example.com/cb');
    await page.getByRole('button', { name: 'Register and continue' }).click();
    await page.getByRole('button', { name: 'Skip this step' }).click();
    await page.getByRole('button', { name: 'Finish' }).click();
    await poll(() => heading(page).textContent()).toBe('Acme portal');
    await page.getByRole('link', { name: 'Applications', exact: true }).click();
    await poll(() => page.locator('.card h2').allTextContents()).toEqual(['Acme portal']);
    await snap(page, '08-acting-as-org');
    // Delete it again, after a confirmation.
    await page.getByRole('link', { name: 'Acme portal' }).click();
    await page.getByRole('button', { name: 'Delete application' }).click();
    await page.getByRole('button', { name: 'Delete for good' }).click();
    await poll(() => heading(page).textContent()).toBe('Applications of Acme');
    await page.getByText('No applications yet.').waitFor();

    // Switching back restores the personal list.
    await page.getByLabel('Acting as').selectOption({ label: 'Alice (personal)' });
    await poll(() => heading(page).textContent()).toBe('Your applications');
    await poll(() => page.locator('.card h2').allTextContents()).toEqual(['Shop']);
    expect(await page.getByTestId('acting').textContent()).toContain('Signed in as Alice');
    await snap(page, '09-personal-list');

    // Sign out ends the session on the server.
    await page.getByRole('button', { name: 'Sign out' }).click();
    await poll(() => heading(page).textContent()).toBe('Sign in');
    const after = await page.evaluate(() => fetch('/api/session').then((r) => r.json()));
    expect(after).toEqual({ user: null });
    await page.close();
    expect(browser.problems).toEqual([]);
  }, 180_000);

  it('runs the OAuth authorization code flow through the real sign-in and consent pages', async () => {
    const owner = await createUser(service.db, {
      email: 'dev@example.com',
      nickName: 'dev',
      displayName: 'Dev',
      passwordHash: 'unused',
    });
    const callback = 'https://client.example.test/callback';
    const { app, clientSecret } = await registerApplication(
      service.db,
      { kind: 'user', userId: owner.id, actorId: owner.actorId },
      {
        name: 'Partner app',
        description: 'A partner',
        url: 'https://client.example.test',
        callbackUrl: callback,
      },
    );
    const page = await browser.openPage();
    await page.context().clearCookies();
    // The client's callback is not a real site: answer it here.
    await page.route('https://client.example.test/**', async (route) => {
      await route.fulfill({ status: 200, contentType: 'text/plain', body: 'client callback' });
    });
    const authorize = new URL(`${service.url}/oauth2/authorize`);
    authorize.search = new URLSearchParams({
      response_type: 'code',
      client_id: app.clientId,
      redirect_uri: callback,
      state: 'state-123',
    }).toString();
    await page.goto(authorize.toString());
    await poll(() => heading(page).textContent()).toBe('Sign in');
    expect(new URL(page.url()).searchParams.get('return')).toMatch(/^\/oauth2\/authorize\?/);
    await page.getByRole('link', { name: 'Create an account' }).click();
    await page.getByLabel('Email').fill('carol@example.com');
    await page.getByLabel('Display name').fill('Carol');
    await page.getByLabel('Password').fill('carol-password');
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.getByText('Your account is ready').waitFor();
    await page.getByLabel('Email').fill('carol@example.com');
    await page.getByLabel('Password').fill('carol-password');
    await page.getByRole('button', { name: 'Sign in' }).click();

    // Back at /oauth2/authorize: the consent page, styled by the portal's stylesheet.
    await page.getByRole('button', { name: 'Allow' }).waitFor();
    expect(await heading(page).textContent()).toContain('Partner app');
    expect(await page.getByRole('button', { name: 'Deny' }).count()).toBe(1);
    await page.waitForLoadState('load');
    await poll(() =>
      page.evaluate(() => getComputedStyle(document.querySelector('button')!).borderRadius),
    ).toBe('6px');
    await snap(page, '10-consent');
    await page.getByRole('button', { name: 'Allow' }).click();
    await page.waitForURL(/^https:\/\/client\.example\.test\/callback\?/);
    expect(await page.textContent('body')).toBe('client callback');
    const answer = new URL(page.url()).searchParams;
    expect(answer.get('state')).toBe('state-123');
    const code = answer.get('code')!;
    expect(code).toBeTruthy();

    // The client exchanges the code and reads the signed-in user.
    const token = await fetch(`${service.url}/oauth2/token`, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        authorization: `Basic ${Buffer.from(`${app.clientId}:${clientSecret}`).toString('base64')}`,
      },
      body: new URLSearchParams({ grant_type: 'authorization_code', code, redirect_uri: callback }),
    });
    expect(token.status).toBe(200);
    const { access_token } = (await token.json()) as { access_token: string };
    const user = await fetch(`${service.url}/user?access_token=${encodeURIComponent(access_token)}`);
    expect(user.status).toBe(200);
    expect(await user.json()).toMatchObject({ email: 'carol@example.com' });
    await page.close();
    expect(browser.problems).toEqual([]);
  }, 120_000);

  it('asks a signed-in user for the password again under prompt=login (OpenID Connect)', async () => {
    const owner = await createUser(service.db, {
      email: 'oidc-dev@example.com',
      nickName: 'oidc-dev',
      displayName: 'OIDC dev',
      passwordHash: 'unused',
    });
    const callback = 'https://rp.example.test/callback';
    const { app } = await registerApplication(
      service.db,
      { kind: 'user', userId: owner.id, actorId: owner.actorId },
      { name: 'Relying party', description: 'An RP', url: 'https://rp.example.test', callbackUrl: callback },
    );
    const page = await browser.openPage();
    await page.route('https://rp.example.test/**', async (route) => {
      await route.fulfill({ status: 200, contentType: 'text/plain', body: 'rp callback' });
    });
    // Carol is signed in (the test before) and has never seen this application.
    const authorize = new URL(`${service.url}/oauth2/authorize`);
    authorize.search = new URLSearchParams({
      response_type: 'code',
      client_id: app.clientId,
      redirect_uri: callback,
      scope: 'openid email',
      nonce: 'n-1',
      prompt: 'login',
    }).toString();
    await page.goto(authorize.toString());
    // The sign-in form, although signed in: no automatic return.
    await poll(() => heading(page).textContent()).toBe('Sign in');
    await page.getByLabel('Email').fill('carol@example.com');
    await page.getByLabel('Password').fill('carol-password');
    await page.getByRole('button', { name: 'Sign in' }).click();
    // Then the consent page, listing what the scopes release, and the callback with a code.
    await page.getByRole('button', { name: 'Allow' }).waitFor();
    expect(await page.textContent('ul.claims')).toContain('your email address');
    await page.getByRole('button', { name: 'Allow' }).click();
    await page.waitForURL(/^https:\/\/rp\.example\.test\/callback\?/);
    expect(new URL(page.url()).searchParams.get('code')).toBeTruthy();
    await page.close();
    expect(browser.problems).toEqual([]);
  }, 60_000);

  it('answers prompt=none without showing a page: consent_required, a code, login_required (OpenID Connect)', async () => {
    const owner = await createUser(service.db, {
      email: 'silent-dev@example.com',
      nickName: 'silent-dev',
      displayName: 'Silent dev',
      passwordHash: 'unused',
    });
    // The relying party's callback: a real server on loopback (the redirect after a GET is followed
    // by the browser's network stack, which a route handler does not see).
    const rp = createServer((_req, res) => res.end('rp callback'));
    await new Promise<void>((resolve) => rp.listen(0, '127.0.0.1', resolve));
    const rpUrl = `http://127.0.0.1:${(rp.address() as AddressInfo).port}`;
    const callback = `${rpUrl}/callback`;
    const { app } = await registerApplication(
      service.db,
      { kind: 'user', userId: owner.id, actorId: owner.actorId },
      { name: 'Silent RP', description: 'An RP', url: rpUrl, callbackUrl: callback },
    );
    const page = await browser.openPage();
    const authorize = (prompt?: string) => {
      const url = new URL(`${service.url}/oauth2/authorize`);
      url.search = new URLSearchParams({
        response_type: 'code',
        client_id: app.clientId,
        redirect_uri: callback,
        scope: 'openid',
        nonce: 'n-silent',
        state: 'st-silent',
        ...(prompt ? { prompt } : {}),
      }).toString();
      return url.toString();
    };
    const back = async () => {
      await page.waitForURL((url) => url.href.startsWith(`${callback}?`));
      const params = new URL(page.url()).searchParams;
      expect(params.get('state')).toBe('st-silent');
      return params;
    };
    // Carol is signed in but has never approved this application (OIDC Core §3.1.2.6).
    await page.goto(authorize('none'));
    expect((await back()).get('error')).toBe('consent_required');
    // She approves it once, through the consent page.
    await page.goto(authorize());
    await page.getByRole('button', { name: 'Allow' }).click();
    expect((await back()).get('code')).toBeTruthy();
    // Now a silent request gets a code straight away.
    await page.goto(authorize('none'));
    expect((await back()).get('code')).toBeTruthy();
    // Without a session it cannot ask her to sign in: login_required.
    await page.context().clearCookies();
    await page.goto(authorize('none'));
    const signedOut = await back();
    expect(signedOut.get('error')).toBe('login_required');
    expect(signedOut.get('code')).toBeNull();
    await page.close();
    rp.close();
    expect(browser.problems).toEqual([]);
  }, 60_000);

  it('ignores a return path to another site after signing in', async () => {
    const page = await browser.openPage();
    await page.context().clearCookies();
    await page.goto(`${service.url}/signin?return=${encodeURIComponent('//evil.example.com/x')}`);
    await page.getByLabel('Email').fill('carol@example.com');
    await page.getByLabel('Password').fill('carol-password');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await poll(() => page.url()).toBe(`${service.url}/`);
    await page.close();
  }, 60_000);
});
