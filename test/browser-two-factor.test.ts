import { randomUUID } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Secret, TOTP } from 'otpauth';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildPortal } from '../portal/build.js';
import { type Chromium, launchChromium } from './support/browser.js';
import { CALLBACK, newApp } from './support/oauth.js';
import { startService, type TestService } from './support/service.js';

/**
 * The two-factor walk in Debian's Chromium: enrol an authenticator app from account
 * settings, sign out, sign in with a code computed from the secret, sign in with a recovery code,
 * register a passkey with Chromium's virtual authenticator (CDP WebAuthn domain) and sign in
 * with it, alone and as the second step after the password.
 */
let service: TestService;
let browser: Chromium;

beforeAll(async () => {
  await buildPortal();
  service = await startService({ IDM_AT_REST_KEY_FILE: join(tmpdir(), `gatehouse-totp-${randomUUID()}`) });
  browser = await launchChromium();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await service?.close();
});

const PASSWORD = 'password-123';
const codeAt = (secret: string, steps = 0) =>
  new TOTP({ secret: Secret.fromBase32(secret) }).generate({ timestamp: Date.now() + steps * 30_000 });

async function signOut(page: Page) {
  await page.getByRole('button', { name: 'Sign out' }).click();
  await page.getByRole('heading', { name: 'Sign in' }).waitFor();
}

async function passwordStep(page: Page, email: string) {
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('heading', { name: 'Two-factor sign-in' }).waitFor();
}

async function signedInAs(page: Page, email: string) {
  await page.getByRole('button', { name: 'Sign out' }).waitFor();
  await expect(page.getByTestId('acting').textContent()).resolves.toContain(email);
}

describe('two-factor sign-in in the portal', () => {
  it('enrols an app, signs in with its code and a recovery code, then with a passkey', async () => {
    const email = `two-factor-${randomUUID().slice(0, 8)}@example.com`;
    const signUpAnswer = await fetch(`${service.url}/api/users`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email, password: PASSWORD, displayName: 'Two Factor' }),
    });
    expect(signUpAnswer.status).toBe(201);
    const created = (await signUpAnswer.json()) as { user: { id: number } };
    const page = await browser.openPage();
    // Chromium's virtual authenticator: a platform passkey store with user verification.
    const cdp = await browser.context.newCDPSession(page);
    await cdp.send('WebAuthn.enable', { enableUI: false });
    const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
      options: {
        protocol: 'ctap2',
        transport: 'internal',
        hasResidentKey: true,
        hasUserVerification: true,
        isUserVerified: true,
        automaticPresenceSimulation: true,
      },
    });

    await page.goto(`${service.url}/signin`);
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await signedInAs(page, email);

    // Enrol the authenticator app from account settings.
    await page.goto(`${service.url}/account`);
    const section = page.locator('section.two-factor');
    await expect(section.getByTestId('two-factor-status').textContent()).resolves.toContain('off');
    await section.getByLabel('Current password').fill(PASSWORD);
    await section.getByRole('button', { name: 'Set up an authenticator app' }).click();
    await section.getByRole('img', { name: 'QR code for your authenticator app' }).waitFor();
    const secret = (await section.getByTestId('totp-secret').textContent())!;
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    await section.getByLabel('Code from the app').fill('000000');
    await section.getByRole('button', { name: 'Turn on' }).click();
    await section.getByText('The code is not right').waitFor();
    await section.getByLabel('Code from the app').fill(codeAt(secret));
    await section.getByRole('button', { name: 'Turn on' }).click();
    const codeList = section.getByRole('list', { name: 'Recovery codes' });
    await codeList.waitFor();
    const recoveryCodes = await codeList.locator('code').allTextContents();
    expect(recoveryCodes).toHaveLength(10);
    await section.getByRole('button', { name: 'I have saved them' }).click();
    await expect(section.getByTestId('two-factor-status').textContent()).resolves.toContain('on');

    // Sign out; the password alone no longer signs in: a code computed from the secret does.
    await signOut(page);
    await passwordStep(page, email);
    await page.getByLabel('Code from your authenticator app').fill('999999');
    await page.getByRole('button', { name: 'Verify' }).click();
    // Shown under the field it concerns.
    await page.locator('.field-error').filter({ hasText: 'The code is not right' }).waitFor();
    await page.getByLabel('Code from your authenticator app').fill(codeAt(secret, 1));
    await page.getByRole('button', { name: 'Verify' }).click();
    await signedInAs(page, email);

    // A recovery code works once.
    await signOut(page);
    await passwordStep(page, email);
    await page.getByLabel('Code from your authenticator app').fill(recoveryCodes[0]!);
    await page.getByRole('button', { name: 'Verify' }).click();
    await signedInAs(page, email);
    await page.goto(`${service.url}/account`);
    await section.getByText('9 of 10 recovery codes left.').waitFor();

    // Register a passkey with the virtual authenticator.
    await section.getByLabel('Current password').fill(PASSWORD);
    await section.getByLabel('Name of the new passkey').fill('Test laptop');
    await section.getByRole('button', { name: 'Add a passkey' }).click();
    await section.getByText('Test laptop').waitFor();
    const { credentials } = await cdp.send('WebAuthn.getCredentials', { authenticatorId });
    expect(credentials).toHaveLength(1);
    expect(credentials[0]!.isResidentCredential).toBe(true);

    // Sign out, and sign in with the passkey alone.
    await signOut(page);
    await page.getByRole('button', { name: 'Use a passkey' }).click();
    await signedInAs(page, email);

    // After the password, the passkey is also a second step.
    await signOut(page);
    await passwordStep(page, email);
    await page.getByRole('button', { name: 'Use your passkey' }).click();
    await signedInAs(page, email);
    await page.goto(`${service.url}/account`);
    await section.getByText(/Test laptop.*last used/).waitFor();

    // The OAuth sign-in (/oauth2/authorize sends people to the portal's /signin) asks for the
    // second factor too, then goes back to the authorization request's consent page.
    await signOut(page);
    const { app } = await newApp(service.db, created.user.id, { name: 'Two-factor app' });
    const authorize = new URLSearchParams({
      response_type: 'code',
      client_id: app.clientId,
      redirect_uri: CALLBACK,
      state: 's1',
    });
    await page.goto(`${service.url}/oauth2/authorize?${authorize}`);
    await page.getByText('An application asks you to sign in').waitFor();
    await passwordStep(page, email);
    await page.getByLabel('Code from your authenticator app').fill(recoveryCodes[1]!);
    await page.getByRole('button', { name: 'Verify' }).click();
    await page.getByRole('heading', { name: 'Allow Two-factor app to use your account?' }).waitFor();
    expect(browser.problems).toEqual([]);
  }, 120_000);
});
