import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type BrowserContext, chromium, type Page } from 'playwright-core';

/**
 * Debian's Chromium (`/usr/bin/chromium`, which .ci/run installs) for the portal's browser
 * walks: headless, on a fresh profile, no network of its own. Every page it opens reports its
 * console errors and uncaught exceptions into `problems`, which a walk expects to stay empty;
 * 4xx answers the walk provokes on purpose are left out.
 */
const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export interface Chromium {
  context: BrowserContext;
  problems: string[];
  openPage(): Promise<Page>;
  close(): Promise<void>;
}

export async function launchChromium(options: { clipboard?: boolean } = {}): Promise<Chromium> {
  const profileDir = mkdtempSync(join(tmpdir(), 'gatehouse-chromium-'));
  const context = await chromium.launchPersistentContext(profileDir, {
    executablePath: '/usr/bin/chromium',
    headless: true,
    args: CHROMIUM_ARGS,
    viewport: { width: 1280, height: 900 },
    ...(options.clipboard ? { permissions: ['clipboard-read', 'clipboard-write'] } : {}),
  });
  // playwright-core waits forever by default; a missing element should fail the test instead.
  context.setDefaultTimeout(15_000);
  // Report CSP violations from inside the page (an init script runs outside the page's CSP).
  await context.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (e) => {
      console.error(`CSP violation: ${e.violatedDirective} ${e.blockedURI}`);
    });
  });
  const problems: string[] = [];
  return {
    context,
    problems,
    async openPage() {
      const page = await context.newPage();
      page.on('console', (m) => {
        if (m.type() === 'error' && !/status of 40[0-9]/.test(m.text())) problems.push(m.text());
      });
      page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
      return page;
    },
    async close() {
      await context.close();
      rmSync(profileDir, { recursive: true, force: true });
    },
  };
}
