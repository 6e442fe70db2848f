import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildPortal } from '../portal/build.js';
import { type Chromium, launchChromium } from './support/browser.js';
import { linkIn, waitForMail } from './support/mail.js';
import { startService, type TestService } from './support/service.js';

/**
 * In Debian's Chromium: the sign-in page's "send the link again" for an unconfirmed
 * address, the mailed verification link, and "Forgot your password?" through the mailed reset
 * link, with mail read from the run's maildev.
 */
let service: TestService;
let browser: Chromium;

beforeAll(async () => {
  await buildPortal();
  service = await startService({ IDM_REQUIRE_EMAIL_VERIFICATION: 'true' });
  browser = await launchChromium();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await service?.close();
});

const address = (name: string) => `${name}-${randomUUID().slice(0, 8)}@example.com`;
const signUp = (email: string, password: string) =>
  fetch(`${service.url}/api/users`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password, displayName: 'Browser person' }),
  });

describe('accounts in the portal', () => {
  it('offers a new link to an unconfirmed address, and the link leads to a filled-in sign-in', async () => {
    const email = address('confirm');
    expect((await signUp(email, 'password-123')).status).toBe(201);
    await waitForMail(email, 'Confirm your email address');
    const page = await browser.openPage();
    await page.goto(`${service.url}/signin`);
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill('password-123');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('alert').filter({ hasText: 'Confirm your email address first' }).waitFor();
    await page.getByRole('button', { name: 'Send the link again' }).click();
    await page.getByText('If an account has this address, we have emailed it a link.').waitFor();
    const { url } = linkIn(await waitForMail(email, 'Confirm your email address', 2));

    await page.goto(url.href);
    await page.getByText('Your email address is confirmed').waitFor();
    expect(new URL(page.url()).pathname).toBe('/signin');
    expect(await page.getByLabel('Email').inputValue()).toBe(email);
    await page.getByLabel('Password').fill('password-123');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('button', { name: 'Sign out' }).waitFor();
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    await page.close();
    expect(browser.problems).toEqual([]);
  });

  it('resets a forgotten password through the mailed link', async () => {
    const email = address('forgot');
    await signUp(email, 'old-password');
    const { token } = linkIn(await waitForMail(email, 'Confirm your email address'));
    await fetch(`${service.url}/api/email-verification/confirm`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ token }),
    });
    const page = await browser.openPage();
    await page.goto(`${service.url}/signin`);
    await page.getByRole('link', { name: 'Forgot your password?' }).click();
    await page.getByRole('heading', { name: 'Forgot your password?' }).waitFor();
    await page.getByLabel('Email').fill(email);
    await page.getByRole('button', { name: 'Email me a link' }).click();
    await page.getByText('If an account has this address, we have emailed it a link.').waitFor();

    const { url } = linkIn(await waitForMail(email, 'Reset your password'));
    await page.goto(url.href);
    await page.getByRole('heading', { name: 'Choose a new password' }).waitFor();
    await page.getByLabel('New password').fill('short');
    await page.getByRole('button', { name: 'Set password' }).click();
    await page
      .getByText(/at least 8/i)
      .first()
      .waitFor();
    await page.getByLabel('New password').fill('brand-new-password');
    await page.getByRole('button', { name: 'Set password' }).click();
    await page.getByText('Your password is changed').waitFor();
    expect(await page.getByLabel('Email').inputValue()).toBe(email);
    await page.getByLabel('Password').fill('brand-new-password');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('button', { name: 'Sign out' }).waitFor();
    await page.close();
    expect(browser.problems).toEqual([]);
  });
});
