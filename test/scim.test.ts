import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOrganization } from '../shared/store/organizations.js';
import { createUser } from '../shared/store/users.js';
import { startService, type TestService } from './support/service.js';

let service: TestService;
beforeAll(async () => {
  service = await startService();
});
afterAll(() => service.close());

describe('GET /v2/ServiceProviderConfigs', () => {
  it('answers zero totals on an empty table', async () => {
    const res = await fetch(`${service.url}/v2/ServiceProviderConfigs`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('application/json');
    expect(await res.json()).toEqual({
      schemas: ['urn:scim:schemas:core:2.0:ServiceProviderConfig'],
      documentationUrl: expect.stringMatching(/^https?:\/\//),
      totalUsers: '0',
      totalOrganizations: '0',
      totalResources: '0',
    });
  });

  it('counts users and organizations as they are created', async () => {
    const user = await createUser(service.db, {
      email: 'a@example.com',
      nickName: 'a1',
      displayName: 'A',
      passwordHash: 'x',
    });
    await createUser(service.db, {
      email: 'b@example.com',
      nickName: 'b1',
      displayName: 'B',
      passwordHash: 'x',
    });
    await createOrganization(service.db, { name: 'Org', description: '', ownerUserId: user.id });
    const body = await (await fetch(`${service.url}/v2/ServiceProviderConfigs`)).json();
    expect(body).toMatchObject({ totalUsers: '2', totalOrganizations: '1', totalResources: '3' });
  });

  it('refuses other methods with 405 and an Allow header', async () => {
    const res = await fetch(`${service.url}/v2/ServiceProviderConfigs`, { method: 'POST' });
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('GET');
  });
});
