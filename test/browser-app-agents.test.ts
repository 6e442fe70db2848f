import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildPortal } from '../portal/build.js';
import type { User } from '../shared/store/users.js';
import { type Chromium, launchChromium } from './support/browser.js';
import { iotSignIn, pepSignIn } from './support/keyrock.js';
import { newApp, newUser, PASSWORD } from './support/oauth.js';
import { startService, type TestService } from './support/service.js';

/**
 * The application page's PEP proxy, IoT agents and trusted applications in Debian's Chromium:
 * credentials shown once and copied, every removal confirmed first, and what the page showed
 * signs in for real (Keyrock's POST /v3/auth/tokens, the password grant).
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
  console.log(`application agents screenshots: ${shots}`);
});

async function signedInPage(user: User): Promise<Page> {
  // Each person signs in afresh: no session of the one before.
  await browser.context.clearCookies();
  const page = await browser.openPage();
  await page.goto(`${service.url}/signin`);
  await page.getByLabel('Email').fill(user.email);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('button', { name: 'Sign out' }).waitFor();
  return page;
}

const section = (page: Page, name: string) => page.getByRole('region', { name, exact: true });

/** The password the page shows once, read from its credentials box. */
async function shownPassword(page: Page, what: string): Promise<{ id: string; password: string }> {
  const box = page.getByRole('region', { name: `New ${what} credentials` });
  await box.getByText('This password won’t be shown again.').waitFor();
  const [id, password] = await box.locator('code.secret').allTextContents();
  return { id: id!, password: password! };
}

describe('PEP proxy, IoT agents and trusted applications on the application page', () => {
  it('walks a Provider through the three sections', async () => {
    const owner = await newUser(service.db, 'provider');
    const registered = await newApp(service.db, owner.id, {
      name: 'Orders service',
      grantTypes: ['authorization_code', 'password'],
    });
    const other = await newApp(service.db, (await newUser(service.db, 'partner')).id, {
      name: 'Partner app',
    });
    const page = await signedInPage(owner);
    await page.goto(`${service.url}/applications/${registered.app.id}`);

    // PEP proxy: create, the password shown once with a copy button.
    const pep = section(page, 'PEP proxy');
    await pep.getByText('No PEP proxy yet.').waitFor();
    await pep.getByRole('button', { name: 'Create PEP proxy' }).click();
    const created = await shownPassword(page, 'PEP proxy');
    expect(created.id).toMatch(/^pep_proxy_/);
    await pep.getByRole('button', { name: 'Copy PEP proxy password' }).click();
    await expect.poll(() => page.evaluate(() => navigator.clipboard.readText())).toBe(created.password);
    expect(await pepSignIn(service.url, created.id, created.password)).toBe(201);
    // At 375 px the long id and password wrap instead of sticking out.
    await page.screenshot({ path: join(shots, 'app-agents-pep-created-1280.png'), fullPage: true });
    await page.setViewportSize({ width: 375, height: 812 });
    await page.screenshot({ path: join(shots, 'app-agents-pep-created-375.png'), fullPage: true });
    expect(
      await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth),
    ).toBeLessThanOrEqual(0);
    await page.setViewportSize({ width: 1280, height: 900 });
    await pep.getByRole('button', { name: 'I have copied it' }).click();
    expect(await page.content()).not.toContain(created.password);
    // Once gone, it is gone: a fresh load shows the id only.
    await page.reload();
    await pep.getByText(created.id).waitFor();
    expect(await page.content()).not.toContain(created.password);

    // Reset, after a confirmation: the old password stops working, the new one works.
    await pep.getByRole('button', { name: 'Reset PEP proxy password' }).click();
    await pep.getByText('Reset the PEP proxy’s password?').waitFor();
    await pep.getByRole('button', { name: 'Reset password', exact: true }).click();
    const reset = await shownPassword(page, 'PEP proxy');
    expect(reset.id).toBe(created.id);
    expect(reset.password).not.toBe(created.password);
    expect(await pepSignIn(service.url, created.id, created.password)).toBe(401);
    expect(await pepSignIn(service.url, created.id, reset.password)).toBe(201);

    // Delete: Cancel keeps it; confirming removes it.
    await pep.getByRole('button', { name: 'Delete PEP proxy' }).click();
    await pep.getByRole('button', { name: 'Cancel' }).click();
    expect(await pepSignIn(service.url, created.id, reset.password)).toBe(201);
    await pep.getByRole('button', { name: 'Delete PEP proxy' }).click();
    await pep.getByText('Delete the PEP proxy?').waitFor();
    await pep.getByRole('button', { name: 'Delete for good' }).click();
    await pep.getByText('No PEP proxy yet.').waitFor();
    expect(await pepSignIn(service.url, created.id, reset.password)).toBe(401);

    // IoT agents: add one, shown once, listed; it signs in with the password grant.
    const iot = section(page, 'IoT agents');
    await iot.getByText('No IoT agents yet.').waitFor();
    await iot.getByRole('button', { name: 'Add IoT agent' }).click();
    const agent = await shownPassword(page, 'IoT agent');
    expect(agent.id).toMatch(/^iot_sensor_/);
    await iot.getByRole('listitem').filter({ hasText: agent.id }).waitFor();
    expect(await iotSignIn(service.url, registered, agent.id, agent.password)).toBe(200);

    // Trusted applications: trust the partner's by client id, then remove it after confirming.
    const trusted = section(page, 'Trusted applications');
    await trusted.getByText('No trusted applications.').waitFor();
    await trusted.getByLabel('Client ID').fill('no-such-client');
    await trusted.getByRole('button', { name: 'Trust application' }).click();
    await trusted.getByRole('alert').waitFor();
    await trusted.getByLabel('Client ID').fill(other.app.clientId);
    await trusted.getByRole('button', { name: 'Trust application' }).click();
    const row = trusted.getByRole('listitem').filter({ hasText: 'Partner app' });
    await row.getByText(other.app.clientId).waitFor();
    await row.getByRole('button', { name: 'Remove' }).click();
    await row.getByText('Stop trusting Partner app?').waitFor();
    await page.screenshot({ path: join(shots, 'app-agents-trusted-1280.png'), fullPage: true });
    await row.getByRole('button', { name: 'Remove' }).click();
    await trusted.getByText('No trusted applications.').waitFor();
    await page.close();
    expect(browser.problems).toEqual([]);
  });

  it('shows a Purchaser the trusted list without edit controls, and no credentials', async () => {
    const owner = await newUser(service.db, 'owner');
    const buyer = await newUser(service.db, 'buyer');
    const registered = await newApp(service.db, owner.id, { name: 'Shared shop' });
    const other = await newApp(service.db, owner.id, { name: 'Shop mobile' });
    const page = await signedInPage(owner);
    const base = `/api/applications/${registered.app.id}`;
    // The owner authorizes the buyer as Purchaser and trusts the mobile app, through the portal API.
    const calls = await page.evaluate(
      async ({ base, email, clientId }) => {
        const session = await (await fetch('/api/session')).json();
        const headers = { 'content-type': 'application/json', 'x-csrf-token': session.csrfToken };
        const detail = await (await fetch(base)).json();
        const roleId = detail.roles.find((r: { builtIn: string | null }) => r.builtIn === 'purchaser').id;
        const a = await fetch(`${base}/authorizations`, {
          method: 'POST',
          headers,
          body: JSON.stringify({ user: email, roleId }),
        });
        const b = await fetch(`${base}/trusted-applications`, {
          method: 'POST',
          headers,
          body: JSON.stringify({ clientId }),
        });
        return [a.status, b.status];
      },
      { base, email: buyer.email, clientId: other.app.clientId },
    );
    expect(calls).toEqual([201, 201]);
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    await page.close();

    const view = await signedInPage(buyer);
    await view.goto(`${service.url}/applications/${registered.app.id}`);
    const trusted = section(view, 'Trusted applications');
    await trusted.getByRole('listitem').filter({ hasText: 'Shop mobile' }).waitFor();
    await trusted.getByText('Only Providers of this application can change this list.').waitFor();
    expect(await trusted.getByRole('button').count()).toBe(0);
    expect(await trusted.getByLabel('Client ID').count()).toBe(0);
    expect(await section(view, 'PEP proxy').count()).toBe(0);
    expect(await section(view, 'IoT agents').count()).toBe(0);
    await view.close();
    expect(browser.problems).toEqual([]);
  });
});
