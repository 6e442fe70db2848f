import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authorize } from '../shared/store/authorizations.js';
import { db } from '../shared/store/db.js';
import { countDynamoDb, type DynamoDbCounter } from '../shared/store/metrics.js';
import { createOrganization } from '../shared/store/organizations.js';
import { roleCatalogue } from '../shared/store/roles.js';
import type { User } from '../shared/store/users.js';
import { newApp, newUser, type Registered, signedIn } from './support/oauth.js';
import { startService, type TestService } from './support/service.js';

/**
 * The portal's permission check asks the role resolver (shared/domain/roles.ts), which reads the
 * user, the application's role catalogue and only the user's own organizations' roles. So the
 * work of a portal change stays the same however many organizations the application authorizes.
 */
let service: TestService;
let counter: DynamoDbCounter;
let alice: User;
let reg: Registered;
let browser: { cookie: string; csrf: string };

beforeAll(async () => {
  service = await startService();
  alice = await newUser(service.db, 'alice');
  reg = await newApp(service.db, alice.id);
  browser = await signedIn(service.db, alice.id);
  counter = countDynamoDb(db().doc);
});
afterAll(async () => {
  counter?.stop();
  await service.close();
});

/** Provider's edit of the application, counted. */
async function editApplication(name: string) {
  counter.reset();
  const res = await fetch(`${service.url}/api/applications/${reg.app.id}`, {
    method: 'PUT',
    headers: { cookie: browser.cookie, 'x-csrf-token': browser.csrf, 'content-type': 'application/json' },
    body: JSON.stringify({
      name,
      description: 'A shop',
      url: 'https://shop.example',
      callbackUrl: 'http://localhost:9999/callback',
    }),
  });
  expect(res.status).toBe(200);
  expect(((await res.json()) as { application: { name: string } }).application.name).toBe(name);
  const work = counter.read();
  expect(work.byCommand.Scan).toBeUndefined();
  return work;
}

describe('portal permission check', () => {
  it('reads the same with 0 and with 200 organizations authorized in the application', async () => {
    const before = await editApplication('Shop 0');

    const purchaser = (await roleCatalogue(service.db, reg.app.id)).roles.find(
      (r) => r.name === 'Purchaser',
    )!;
    const owner = await newUser(service.db, 'orgs-owner');
    for (let i = 0; i < 200; i++) {
      const org = await createOrganization(service.db, {
        name: `Org ${i}`,
        description: 'x'.repeat(200),
        ownerUserId: owner.id,
      });
      await authorize(service.db, reg.app.id, { kind: 'org', id: org.id }, purchaser.id);
    }

    const after = await editApplication('Shop 200');
    expect(after.calls).toBe(before.calls);
    expect(after.roundTrips).toBe(before.roundTrips);
    expect(after.readUnits).toBe(before.readUnits);
  });
});
