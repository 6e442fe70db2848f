import { randomUUID } from 'node:crypto';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildPortal } from '../portal/build.js';
import { registerUser } from '../shared/domain/accounts.js';
import { createOrganization, setMember } from '../shared/store/organizations.js';
import { type Chromium, launchChromium } from './support/browser.js';
import { linkIn, waitForMail } from './support/mail.js';
import { basic, newApp, postForm } from './support/oauth.js';
import { startService, type TestService } from './support/service.js';

/**
 * In Debian's Chromium: the account settings page (name, e-mail through the mailed
 * link, password, sessions, the two-factor section mounted, deleting the account) and the
 * administrator page (search, paging, disabling a user whose token then fails at /user).
 */
let service: TestService;
let browser: Chromium;
const PASSWORD = 'password-123';

beforeAll(async () => {
  await buildPortal();
  service = await startService();
  browser = await launchChromium();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await service?.close();
});

async function freshPage(): Promise<Page> {
  await browser.context.clearCookies(); // each walk starts signed out
  return browser.openPage();
}

const address = (name: string) => `${name}-${randomUUID().slice(0, 8)}@example.com`;
const register = (email: string, displayName: string, admin = false) =>
  registerUser(service.db, { email, password: PASSWORD, displayName, admin }, 4);

/** Signs in through the API (another device): the cookie of that session. */
async function otherDevice(email: string): Promise<string> {
  const res = await fetch(`${service.url}/api/session`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password: PASSWORD }),
  });
  expect(res.status).toBe(200);
  return res.headers.get('set-cookie')!.split(';')[0]!;
}

const accountStatus = async (cookie: string) =>
  (await fetch(`${service.url}/api/account`, { headers: { cookie } })).status;

async function signIn(page: Page, email: string, password = PASSWORD) {
  await page.goto(`${service.url}/signin`);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await page.getByRole('button', { name: 'Sign out' }).waitFor();
}

describe('account settings in the portal', () => {
  it('changes the name, the e-mail through its link, the password, ends a session and deletes the account', async () => {
    const email = address('settings');
    const user = await register(email, 'Settings Person');
    const heir = await register(address('heir'), 'Heir Person');
    const org = await createOrganization(service.db, {
      name: 'Solo Works',
      description: '',
      ownerUserId: user.id,
    });
    const laptop = await otherDevice(email);

    const page = await freshPage();
    await signIn(page, email);
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Account' }).click();
    await page.getByRole('heading', { name: 'Account settings' }).waitFor();
    // The two-factor section (pages/two-factor.ts) is mounted in the page.
    await page.getByTestId('two-factor').getByRole('heading', { name: 'Two-factor sign-in' }).waitFor();

    await page.getByRole('textbox', { name: 'Display name' }).fill('Renamed Person');
    await page.getByRole('button', { name: 'Save name' }).click();
    await page.getByText('Your name is saved.').waitFor();
    await page.getByTestId('acting').getByText('Renamed Person').waitFor();

    const sessions = page.getByTestId('sessions').getByRole('listitem');
    await expect.poll(() => sessions.count()).toBe(2);
    await sessions.filter({ hasText: 'Another session' }).getByRole('button', { name: 'Sign out' }).click();
    await expect.poll(() => sessions.count()).toBe(1);
    expect(await accountStatus(laptop)).toBe(401);

    const next = address('renamed');
    const emailForm = page.locator('form', { has: page.getByRole('heading', { name: 'Email address' }) });
    await emailForm.getByLabel('New email address').fill(next);
    await emailForm.getByLabel('Current password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Send a confirmation link' }).click();
    await page.getByText(`We emailed a link to ${next}`).waitFor();
    expect(await page.getByTestId('current-email').textContent()).toBe(email);
    const { url } = linkIn(await waitForMail(next, 'Confirm your new email address'));
    await page.goto(url.href);
    await page.getByText(`Your email address is now ${next}`).waitFor();
    await page.getByRole('link', { name: 'Go to your account settings' }).click();
    await page.getByRole('heading', { name: 'Account settings' }).waitFor();
    await expect.poll(() => page.getByTestId('current-email').textContent()).toBe(next);

    const passwordForm = page.locator('form', { has: page.getByRole('heading', { name: 'Password' }) });
    await passwordForm.getByLabel('Current password').fill('not-my-password');
    await passwordForm.getByLabel('New password').fill('brand-new-password');
    await page.getByRole('button', { name: 'Change password' }).click();
    await passwordForm.getByText('The password is not right.').waitFor();
    await passwordForm.getByLabel('Current password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Change password' }).click();
    await page.getByText('Your password is changed').waitFor();

    await page.getByRole('button', { name: 'Delete account…' }).click();
    const confirm = page.locator('form.confirm');
    await confirm.getByLabel('Password').fill('brand-new-password');
    await page.getByRole('button', { name: 'Delete my account' }).click();
    await page
      .getByRole('alert')
      .filter({ hasText: `You are the last owner of organization Solo Works (${org.id})` })
      .waitFor();
    await setMember(service.db, org.id, heir.id, 'owner');
    await page.getByRole('button', { name: 'Delete my account' }).click();
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();

    await page.getByLabel('Email').fill(next);
    await page.getByLabel('Password').fill('brand-new-password');
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.getByRole('alert').filter({ hasText: 'Invalid email or password' }).waitFor();
    await page.close();
    expect(browser.problems).toEqual([]);
  }, 60_000);
});

describe('the administrator page', () => {
  it('finds users page by page, disables one (its token fails at /user at once) and enables it again', async () => {
    const run = randomUUID().slice(0, 6);
    const adminEmail = address('root');
    const admin = await register(adminEmail, 'Root Admin', true);
    const targetEmail = `target-${run}@example.com`;
    await register(targetEmail, 'Target Person');
    for (let i = 0; i < 22; i++)
      await register(`pg${run}-${String(i).padStart(2, '0')}@example.com`, `Paged ${i}`);
    const { app, secret } = await newApp(service.db, admin.id, { grantTypes: ['password'] });
    const grant = await postForm(
      `${service.url}/oauth2/token`,
      { grant_type: 'password', username: targetEmail, password: PASSWORD },
      { authorization: basic(app.clientId, secret) },
    );
    const token = (await grant.json()).access_token as string;
    const userStatus = async () =>
      (await fetch(`${service.url}/user`, { headers: { authorization: `Bearer ${token}` } })).status;
    expect(await userStatus()).toBe(200);

    const page = await freshPage();
    await signIn(page, adminEmail);
    await page.getByRole('link', { name: 'Administration' }).click();
    await page.getByRole('heading', { name: 'Administration' }).waitFor();
    await expect
      .poll(async () => Number(await page.getByTestId('total-users').textContent()))
      .toBeGreaterThan(24);

    await page.getByLabel('Starts with').fill(`pg${run}`);
    await page.getByRole('button', { name: 'Search' }).click();
    const rows = page.getByTestId('users').getByRole('listitem');
    await expect.poll(() => rows.count()).toBe(20);
    await page.getByRole('button', { name: 'Next page' }).click();
    await expect.poll(() => rows.count()).toBe(2);
    await rows.filter({ hasText: `pg${run}-21@example.com` }).waitFor();
    await page.getByRole('button', { name: 'Previous page' }).click();
    await expect.poll(() => rows.count()).toBe(20);

    await page.getByLabel('Search by').selectOption('name');
    await page.getByLabel('Starts with').fill('target');
    await page.getByRole('button', { name: 'Search' }).click();
    const row = rows.filter({ hasText: targetEmail });
    await row.waitFor();
    await row.getByRole('button', { name: 'Disable Target Person' }).click();
    await row.getByText('Disabled', { exact: true }).waitFor();
    expect(await userStatus()).toBe(401);
    await row.getByRole('button', { name: 'Enable Target Person' }).click();
    await row.getByRole('button', { name: 'Disable Target Person' }).waitFor();
    expect(await userStatus()).toBe(200);
    await row.getByRole('button', { name: 'Make administrator' }).click();
    await row.getByText('Administrator', { exact: true }).waitFor();

    // Someone who is not an administrator sees no link, and the page says why.
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    const plainEmail = address('plain');
    await register(plainEmail, 'Plain Person');
    await signIn(page, plainEmail);
    expect(await page.getByRole('link', { name: 'Administration' }).count()).toBe(0);
    await page.goto(`${service.url}/admin`);
    await page.getByRole('alert').filter({ hasText: 'Only administrators may do this.' }).waitFor();
    await page.close();
    expect(browser.problems).toEqual([]);
  }, 60_000);
});
