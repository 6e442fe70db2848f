import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setAdministrator } from '../shared/domain/user-admin.js';
import { authorize } from '../shared/store/authorizations.js';
import { db } from '../shared/store/db.js';
import { keys } from '../shared/store/keys.js';
import { countDynamoDb } from '../shared/store/metrics.js';
import { getItem } from '../shared/store/ops.js';
import {
  createOrganization,
  getMembership,
  getOrganization,
  setMember,
} from '../shared/store/organizations.js';
import { roleCatalogue } from '../shared/store/roles.js';
import { totals } from '../shared/store/stats.js';
import type { User } from '../shared/store/users.js';
import { expectKeyrockError, keyrockClient } from './support/keyrock.js';
import { newApp } from './support/oauth.js';
import { startService, type TestService } from './support/service.js';

/**
 * Keyrock's /v1/organizations API through the local server with plain fetch, as Keyrock's
 * scripts call it: organizations, their members, who may do what (owner manages, member reads,
 * administrator everything) and deletion with everything that names the organization.
 */
let service: TestService;
const { call, signIn, register } = keyrockClient(() => service);
let admin: User;
let olga: User; // owns the organizations under test
let mike: User; // a member
let eve: User; // belongs to none of them
let adminToken: string;
let olgaToken: string;
let mikeToken: string;
let eveToken: string;

async function createOrg(token: string, organization: Record<string, unknown>): Promise<string> {
  const res = await call('POST', '/v1/organizations', { token, json: { organization } });
  expect(res.status).toBe(201);
  return (res.body.organization as { id: string }).id;
}

const rolePath = (orgId: string, userId: number | string, role: string) =>
  `/v1/organizations/${orgId}/users/${userId}/organization_roles/${role}`;

beforeAll(async () => {
  service = await startService();
  admin = await setAdministrator(service.db, (await register('root@test.com', 'root')).id, true);
  olga = await register('olga@test.com', 'olga');
  mike = await register('mike@test.com', 'mike');
  eve = await register('eve@test.com', 'eve');
  [adminToken, olgaToken, mikeToken, eveToken] = await Promise.all([
    signIn(admin.email),
    signIn(olga.email),
    signIn(mike.email),
    signIn(eve.email),
  ]);
});
afterAll(() => service.close());

describe('GET and POST /v1/organizations', () => {
  it('answers 404 to a user in no organization, as Keyrock does', async () => {
    expectKeyrockError(
      await call('GET', '/v1/organizations', { token: eveToken }),
      404,
      'Organizations not found',
    );
  });

  it('creates an organization owned by the caller, and lists it with the caller’s role', async () => {
    const before = (await totals(service.db)).organizations;
    const res = await call('POST', '/v1/organizations', {
      token: olgaToken,
      json: {
        organization: { name: 'Security', description: 'Store detectives', website: 'https://sec.example' },
      },
    });
    expect(res.status).toBe(201);
    const created = res.body.organization as { id: string };
    expect(res.body).toEqual({
      organization: {
        id: expect.stringMatching(/^\d+$/),
        image: 'default',
        name: 'Security',
        description: 'Store detectives',
        website: 'https://sec.example',
      },
    });
    expect((await totals(service.db)).organizations).toBe(before + 1);
    expect(await getMembership(service.db, Number(created.id), olga.id)).toMatchObject({ role: 'owner' });

    const list = await call('GET', '/v1/organizations', { token: olgaToken });
    expect(list.status).toBe(200);
    expect(list.body.organizations).toContainEqual({
      role: 'owner',
      Organization: {
        id: created.id,
        name: 'Security',
        description: 'Store detectives',
        image: 'default',
        website: 'https://sec.example',
      },
    });
    // Someone else's organizations are not listed.
    expectKeyrockError(
      await call('GET', '/v1/organizations', { token: eveToken }),
      404,
      'Organizations not found',
    );
  });

  it('refuses bad bodies with Keyrock’s 400 and writes nothing', async () => {
    const before = (await totals(service.db)).organizations;
    const cases: [Parameters<typeof call>[2], string][] = [
      [{ json: {} }, 'Missing parameter organization in body request'],
      [{ json: { organization: 'x' } }, 'Missing parameter organization in body request'],
      [
        { json: { organization: { description: 'no name' } } },
        'Missing parameter name in body request or empty name',
      ],
      [{ json: { organization: { name: '' } } }, 'Missing parameter name in body request or empty name'],
      [{ raw: '{not json' }, 'The body is not valid JSON.'],
      [
        { raw: 'name=x', type: 'application/x-www-form-urlencoded' },
        'Missing parameter: header Content-Type: application/json',
      ],
    ];
    for (const [init, message] of cases) {
      expectKeyrockError(
        await call('POST', '/v1/organizations', { token: olgaToken, ...init }),
        400,
        message,
      );
    }
    // Values the domain refuses: a name too long, a website that is not http(s).
    const long = await call('POST', '/v1/organizations', {
      token: olgaToken,
      json: { organization: { name: 'n'.repeat(500) } },
    });
    expect(long.status).toBe(400);
    const website = await call('POST', '/v1/organizations', {
      token: olgaToken,
      json: { organization: { name: 'Web', website: 'javascript:alert(1)' } },
    });
    expect(website.status).toBe(400);
    expect((await totals(service.db)).organizations).toBe(before);
  });

  it('needs a token: 401 without one or with an unknown one', async () => {
    const none = await call('GET', '/v1/organizations');
    expect(none.status).toBe(401);
    expect(none.body.error?.code).toBe(401);
    const unknown = await call('GET', '/v1/organizations', {
      token: 'zz.AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA',
    });
    expect(unknown.status).toBe(401);
  });
});

describe('GET, PATCH and DELETE /v1/organizations/:id', () => {
  let orgId: string;
  beforeAll(async () => {
    orgId = await createOrg(olgaToken, { name: 'Management', description: 'Store managers' });
    expect(
      (await call('PUT', rolePath(orgId, mike.id, 'member'), { token: olgaToken, type: 'application/json' }))
        .status,
    ).toBe(201);
  });

  it('lets the owner and a member read it; someone else gets 403 and an unknown id 404', async () => {
    const expected = {
      organization: {
        id: orgId,
        name: 'Management',
        description: 'Store managers',
        website: null,
        image: 'default',
      },
    };
    for (const token of [olgaToken, mikeToken, adminToken]) {
      const res = await call('GET', `/v1/organizations/${orgId}`, { token });
      expect(res.status).toBe(200);
      expect(res.body).toEqual(expected);
    }
    expectKeyrockError(
      await call('GET', `/v1/organizations/${orgId}`, { token: eveToken }),
      403,
      'User not allow to perform the action',
    );
    for (const id of ['999999', '0', 'no-such-uuid-0000', 'a%20b']) {
      expectKeyrockError(
        await call('GET', `/v1/organizations/${id}`, { token: olgaToken }),
        404,
        'Organization not found',
      );
    }
  });

  it('lets the owner change it: the new values of what changed, or Keyrock’s message for nothing', async () => {
    const res = await call('PATCH', `/v1/organizations/${orgId}`, {
      token: olgaToken,
      json: {
        organization: { name: 'Managers', description: 'Store managers', website: 'http://m.example' },
      },
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ values_updated: { name: 'Managers', website: 'http://m.example' } });
    expect(await getOrganization(service.db, Number(orgId))).toMatchObject({
      name: 'Managers',
      website: 'http://m.example',
    });
    // The members' copies of the name follow (GET /user reads them).
    expect(await getMembership(service.db, Number(orgId), mike.id)).toMatchObject({ orgName: 'Managers' });
    const same = await call('PATCH', `/v1/organizations/${orgId}`, {
      token: olgaToken,
      json: { organization: { name: 'Managers' } },
    });
    expect(same.body).toEqual({
      message: "Request don't change the organization parameters",
      code: 200,
      title: 'OK',
    });
  });

  it('refuses a member, an outsider and bad bodies, changing nothing', async () => {
    const change = { json: { organization: { name: 'Hijacked' } } };
    expectKeyrockError(
      await call('PATCH', `/v1/organizations/${orgId}`, { token: mikeToken, ...change }),
      403,
      'User not allow to perform the action',
    );
    expectKeyrockError(
      await call('PATCH', `/v1/organizations/${orgId}`, { token: eveToken, ...change }),
      403,
      'User not allow to perform the action',
    );
    expectKeyrockError(
      await call('PATCH', `/v1/organizations/${orgId}`, {
        token: olgaToken,
        json: { organization: { id: '5' } },
      }),
      400,
      'Cannot set id',
    );
    expectKeyrockError(
      await call('PATCH', `/v1/organizations/${orgId}`, { token: olgaToken, json: { name: 'x' } }),
      400,
      'Missing parameter organization in body request',
    );
    expect((await getOrganization(service.db, Number(orgId)))?.name).toBe('Managers');
  });

  it('lets an administrator change an organization it does not belong to', async () => {
    const res = await call('PATCH', `/v1/organizations/${orgId}`, {
      token: adminToken,
      json: { organization: { description: 'By admin' } },
    });
    expect(res.body).toEqual({ values_updated: { description: 'By admin' } });
  });

  it('refuses deletion to a member and an outsider', async () => {
    for (const token of [mikeToken, eveToken]) {
      expectKeyrockError(
        await call('DELETE', `/v1/organizations/${orgId}`, { token }),
        403,
        'User not allow to perform the action',
      );
    }
    expect(await getOrganization(service.db, Number(orgId))).toBeDefined();
  });
});

describe('members: /v1/organizations/:id/users…', () => {
  let orgId: string;
  beforeAll(async () => {
    orgId = await createOrg(olgaToken, { name: 'Detectives' });
  });

  it('adds a member with PUT, changes the role with the deprecated POST, both 201 with Keyrock’s body', async () => {
    const put = await call('PUT', rolePath(orgId, mike.id, 'member'), {
      token: olgaToken,
      type: 'application/json',
    });
    expect(put.status).toBe(201);
    expect(put.body).toEqual({
      user_organization_assignments: { role: 'member', user_id: String(mike.id), organization_id: orgId },
    });
    const post = await call('POST', rolePath(orgId, mike.id, 'owner'), {
      token: olgaToken,
      type: 'application/json',
    });
    expect(post.status).toBe(201);
    expect(post.body.user_organization_assignments).toMatchObject({ role: 'owner' });
    expect(await getMembership(service.db, Number(orgId), mike.id)).toMatchObject({ role: 'owner' });
    // Back to member for the tests below.
    expect(
      (await call('PUT', rolePath(orgId, mike.id, 'member'), { token: olgaToken, type: 'application/json' }))
        .status,
    ).toBe(201);
  });

  it('lists the members and one member’s role, for members', async () => {
    const list = await call('GET', `/v1/organizations/${orgId}/users`, { token: mikeToken });
    expect(list.status).toBe(200);
    expect(list.body).toEqual({
      organization_users: [
        { user_id: String(olga.id), organization_id: orgId, role: 'owner' },
        { user_id: String(mike.id), organization_id: orgId, role: 'member' },
      ].sort((a, b) => Number(a.user_id) - Number(b.user_id)),
    });
    const one = await call('GET', `/v1/organizations/${orgId}/users/${mike.id}/organization_roles`, {
      token: olgaToken,
    });
    expect(one.body).toEqual({
      organization_user: { user_id: String(mike.id), organization_id: orgId, role: 'member' },
    });
    const held = await call('GET', rolePath(orgId, mike.id, 'member'), { token: olgaToken });
    expect(held.status).toBe(200);
    expectKeyrockError(
      await call('GET', rolePath(orgId, mike.id, 'owner'), { token: olgaToken }),
      404,
      'Assignment not found',
    );
    expectKeyrockError(
      await call('GET', `/v1/organizations/${orgId}/users/${eve.id}/organization_roles`, {
        token: olgaToken,
      }),
      404,
      'Assignment not found',
    );
  });

  it('keeps members’ lists from outsiders, and member management from members', async () => {
    expectKeyrockError(
      await call('GET', `/v1/organizations/${orgId}/users`, { token: eveToken }),
      403,
      'User not allow to perform the action',
    );
    expectKeyrockError(
      await call('GET', `/v1/organizations/${orgId}/users/${olga.id}/organization_roles`, {
        token: eveToken,
      }),
      403,
      'User not allow to perform the action',
    );
    // A member cannot promote itself, add someone or remove the owner.
    for (const [method, path] of [
      ['PUT', rolePath(orgId, mike.id, 'owner')],
      ['PUT', rolePath(orgId, eve.id, 'member')],
      ['DELETE', rolePath(orgId, olga.id, 'owner')],
    ] as const) {
      expectKeyrockError(
        await call(method, path, { token: mikeToken, type: 'application/json' }),
        403,
        'User not allow to perform the action',
      );
    }
    // An outsider cannot add itself.
    expectKeyrockError(
      await call('PUT', rolePath(orgId, eve.id, 'owner'), { token: eveToken, type: 'application/json' }),
      403,
      'User not allow to perform the action',
    );
    expect(await getMembership(service.db, Number(orgId), eve.id)).toBeUndefined();
    expect(await getMembership(service.db, Number(orgId), mike.id)).toMatchObject({ role: 'member' });
  });

  it('answers Keyrock’s 400 and 404s for bad paths and headers', async () => {
    expectKeyrockError(
      await call('PUT', rolePath(orgId, mike.id, 'boss'), { token: olgaToken, type: 'application/json' }),
      404,
      'Organization role not found',
    );
    expectKeyrockError(
      await call('PUT', rolePath(orgId, 'nobody-0000', 'member'), {
        token: olgaToken,
        type: 'application/json',
      }),
      404,
      'User not found',
    );
    expectKeyrockError(
      await call('PUT', rolePath(orgId, 999999, 'member'), { token: olgaToken, type: 'application/json' }),
      404,
      'User 999999 does not exist.',
    );
    expectKeyrockError(
      await call('PUT', rolePath('999999', mike.id, 'member'), {
        token: olgaToken,
        type: 'application/json',
      }),
      404,
      'Organization not found',
    );
    expectKeyrockError(
      await call('PUT', rolePath(orgId, mike.id, 'owner'), { token: olgaToken }),
      400,
      'Missing parameter: header Content-Type: application/json',
    );
    // DELETE of a role the member does not hold removes nothing.
    expectKeyrockError(
      await call('DELETE', rolePath(orgId, mike.id, 'owner'), { token: olgaToken }),
      404,
      'Assignments not found',
    );
    expect(await getMembership(service.db, Number(orgId), mike.id)).toMatchObject({ role: 'member' });
  });

  it('keeps an owner: the last one can neither step down nor leave (400)', async () => {
    const demote = await call('PUT', rolePath(orgId, olga.id, 'member'), {
      token: olgaToken,
      type: 'application/json',
    });
    expect(demote.status).toBe(400);
    expect(demote.body.error?.message).toMatch(/at least one owner/);
    expect((await call('DELETE', rolePath(orgId, olga.id, 'owner'), { token: olgaToken })).status).toBe(400);
    expect(await getMembership(service.db, Number(orgId), olga.id)).toMatchObject({ role: 'owner' });
  });

  it('removes a member with DELETE of its role (204)', async () => {
    const res = await call('DELETE', rolePath(orgId, mike.id, 'member'), { token: olgaToken });
    expect(res.status).toBe(204);
    expect(await getMembership(service.db, Number(orgId), mike.id)).toBeUndefined();
    // No longer a member: no longer a reader.
    expect((await call('GET', `/v1/organizations/${orgId}`, { token: mikeToken })).status).toBe(403);
  });

  it('lets an administrator manage the members of any organization', async () => {
    const res = await call('PUT', rolePath(orgId, eve.id, 'member'), {
      token: adminToken,
      type: 'application/json',
    });
    expect(res.status).toBe(201);
    expect((await call('GET', `/v1/organizations/${orgId}/users`, { token: adminToken })).status).toBe(200);
    expect((await call('DELETE', rolePath(orgId, eve.id, 'member'), { token: adminToken })).status).toBe(204);
  });
});

describe('DELETE /v1/organizations/:id', () => {
  it('removes the organization, its memberships, its roles in applications and their summaries at once', async () => {
    const orgId = await createOrg(olgaToken, { name: 'Short-lived' });
    const id = Number(orgId);
    await call('PUT', rolePath(orgId, mike.id, 'member'), { token: olgaToken, type: 'application/json' });
    const { app } = await newApp(service.db, olga.id);
    const roles = await roleCatalogue(service.db, app.id);
    const provider = roles.roles.find((r) => r.builtIn === 'provider')!;
    await authorize(service.db, app.id, { kind: 'org', id }, provider.id);
    expect(await getItem(service.db, keys.orgRoles(app.id, id), true)).toBeDefined();
    const before = (await totals(service.db)).organizations;

    const res = await call('DELETE', `/v1/organizations/${orgId}`, { token: olgaToken });
    expect(res.status).toBe(204);
    expect(await getOrganization(service.db, id)).toBeUndefined();
    expect(await getMembership(service.db, id, olga.id)).toBeUndefined();
    expect(await getMembership(service.db, id, mike.id)).toBeUndefined();
    expect(await getItem(service.db, keys.orgAuthorization(app.id, id, provider.id), true)).toBeUndefined();
    expect(await getItem(service.db, keys.orgRoles(app.id, id), true)).toBeUndefined();
    expect((await totals(service.db)).organizations).toBe(before - 1);
    expectKeyrockError(
      await call('GET', `/v1/organizations/${orgId}`, { token: olgaToken }),
      404,
      'Organization not found',
    );
    expectKeyrockError(
      await call('DELETE', `/v1/organizations/${orgId}`, { token: olgaToken }),
      404,
      'Organization not found',
    );
  });

  it('lets an administrator delete any organization', async () => {
    const orgId = await createOrg(olgaToken, { name: 'Admin deletes' });
    expect((await call('DELETE', `/v1/organizations/${orgId}`, { token: adminToken })).status).toBe(204);
    expect(await getOrganization(service.db, Number(orgId))).toBeUndefined();
  });
});

describe('organizations beyond one transaction', () => {
  it('renames and deletes an organization of 120 members, copies and all', async () => {
    const orgId = await createOrg(olgaToken, { name: 'Crowd' });
    const id = Number(orgId);
    const users = await Promise.all(
      Array.from({ length: 119 }, (_, i) => register(`crowd${i}@test.com`, `crowd ${i}`)),
    );
    for (const u of users) await setMember(service.db, id, u.id, 'member');
    const renamed = await call('PATCH', `/v1/organizations/${orgId}`, {
      token: olgaToken,
      json: { organization: { name: 'Big crowd' } },
    });
    expect(renamed.body).toEqual({ values_updated: { name: 'Big crowd' } });
    const copies = await Promise.all(users.map((u) => getMembership(service.db, id, u.id)));
    expect(copies.every((m) => m?.orgName === 'Big crowd')).toBe(true);

    const res = await call('DELETE', `/v1/organizations/${orgId}`, { token: olgaToken });
    expect(res.status).toBe(204);
    expect(await getOrganization(service.db, id)).toBeUndefined();
    const left = await Promise.all([olga, ...users].map((u) => getMembership(service.db, id, u.id)));
    expect(left.filter(Boolean)).toEqual([]);
  });
});

describe('round trips (docs/data-model.md)', () => {
  it('costs what the data model lists, the token read included, and never a Scan', async () => {
    const counter = countDynamoDb(db().doc);
    try {
      const orgId = await createOrg(olgaToken, { name: 'Counted' });
      const cases: [string, string, number, { type?: string }?][] = [
        ['GET', '/v1/organizations', 3],
        ['GET', `/v1/organizations/${orgId}`, 2],
        ['GET', `/v1/organizations/${orgId}/users`, 2],
        ['PUT', rolePath(orgId, mike.id, 'member'), 4, { type: 'application/json' }],
        ['GET', `/v1/organizations/${orgId}/users/${mike.id}/organization_roles`, 3],
        ['DELETE', rolePath(orgId, mike.id, 'member'), 5],
        ['DELETE', `/v1/organizations/${orgId}`, 4],
      ];
      for (const [method, path, roundTrips, init] of cases) {
        counter.reset();
        const res = await call(method, path, { token: olgaToken, ...init });
        expect(res.status, `${method} ${path}`).toBeLessThan(300);
        const work = counter.read();
        expect(work.roundTrips, `${method} ${path}`).toBe(roundTrips);
        expect(work.byCommand.Scan).toBeUndefined();
      }
    } finally {
      counter.stop();
    }
  });
});

describe('organizations moved from Keyrock', () => {
  it('keep their Keyrock id in answers and paths; the integer id works as well', async () => {
    const uuid = 'security-team-0000-0000-000000000000';
    const org = await createOrganization(service.db, {
      name: 'Moved',
      description: 'From Keyrock',
      ownerUserId: olga.id,
      keyrockId: uuid,
    });
    const byUuid = await call('GET', `/v1/organizations/${uuid}`, { token: olgaToken });
    expect(byUuid.status).toBe(200);
    expect((byUuid.body.organization as { id: string }).id).toBe(uuid);
    const byId = await call('GET', `/v1/organizations/${org.id}`, { token: olgaToken });
    expect(byId.body).toEqual(byUuid.body);
    const members = await call('GET', `/v1/organizations/${uuid}/users`, { token: olgaToken });
    expect(members.body).toEqual({
      organization_users: [{ user_id: String(olga.id), organization_id: uuid, role: 'owner' }],
    });
  });
});
