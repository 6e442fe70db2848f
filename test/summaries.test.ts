import { beforeAll, describe, expect, it } from 'vitest';
import { registerApplication } from '../shared/domain/applications.js';
import { resolveRoles } from '../shared/domain/roles.js';
import { AppError } from '../shared/errors.js';
import { userInApplication } from '../shared/store/access.js';
import {
  authorize,
  orgRoleGrants,
  setOrgRoleHolder,
  setSingleRole,
  unauthorize,
} from '../shared/store/authorizations.js';
import type { Db } from '../shared/store/db.js';
import { keys } from '../shared/store/keys.js';
import { rebuildSummaries } from '../shared/store/migrate.js';
import { getItem, queryPartition } from '../shared/store/ops.js';
import { createOrganization, setMember } from '../shared/store/organizations.js';
import {
  catalogueFrom,
  createPermission,
  createRole,
  deletePermission,
  deleteRole,
  renameRole,
  roleCatalogue,
  setRolePermission,
} from '../shared/store/roles.js';
import { orgRoleSets, rulesFromSummary } from '../shared/store/summaries.js';
import { createUser, type User } from '../shared/store/users.js';
import { testDb } from './support/service.js';

/**
 * The lookups read two summaries (docs/data-model.md, patterns 18 and 19) kept in the same
 * transactions as the items they summarise. These tests change the catalogue and organization
 * roles every way the service can and compare each summary with the items themselves, then
 * check that applications written before the summaries existed are answered the same, before
 * and after `npx idm migrate`.
 */
let db: Db;
let owner: User;
let n = 0;

beforeAll(async () => {
  db = await testDb();
  owner = await newUser();
});

function newUser(): Promise<User> {
  n++;
  return createUser(db, {
    email: `s${n}@example.com`,
    nickName: `s${n}`,
    displayName: `S${n}`,
    passwordHash: 'x',
  });
}

async function newApplication() {
  const input = {
    name: 'Shop',
    description: 'A shop',
    url: 'https://shop.example',
    callbackUrl: 'https://shop.example/cb',
  };
  return registerApplication(db, { kind: 'user', userId: owner.id, actorId: owner.actorId }, input);
}

/** The summary read back, as the rules the catalogue's own items give. */
async function summaryMatchesItems(appId: number) {
  const summary = rulesFromSummary(await getItem(db, keys.catalogue(appId), true), appId);
  const full = await roleCatalogue(db, appId);
  expect(summary).toBeDefined();
  expect(summary!.roles).toEqual(full.roles);
  expect(summary!.permissions).toEqual(
    full.permissions.map((p) => ({ id: p.id, verb: p.verb, path: p.path })),
  );
  expect(summary!.switches).toEqual(full.switches);
}

/** Each organization's role sets, as the ORGAUTHZ items give them and as the summary holds them. */
async function orgRolesMatchItems(appId: number) {
  const items = await queryPartition(db, keys.appPartition(appId));
  type Sets = { all: number[]; member: number[]; owner: number[] };
  const expected = new Map<number, Sets>();
  for (const i of items.filter((x) => (x.SK as string).startsWith('ORGAUTHZ#'))) {
    const sets = expected.get(i.orgId as number) ?? { all: [], member: [], owner: [] };
    const only = i.heldBy as Set<'member' | 'owner'> | undefined;
    sets[only ? [...only][0]! : 'all'].push(i.roleId as number);
    expected.set(i.orgId as number, sets);
  }
  const sorted = (sets: Sets) => ({
    all: sets.all.sort(),
    member: sets.member.sort(),
    owner: sets.owner.sort(),
  });
  for (const i of items.filter((x) => (x.SK as string).startsWith('ORGROLES#'))) {
    expect(sorted(orgRoleSets(i)), `organization ${i.orgId}`).toEqual(
      sorted(expected.get(i.orgId as number) ?? { all: [], member: [], owner: [] }),
    );
    expected.delete(i.orgId as number);
  }
  expect([...expected.keys()], 'organizations with roles but no summary').toEqual([]);
}

describe('the catalogue summary', () => {
  it('follows every role, permission and switch change', async () => {
    const { app } = await newApplication();
    await summaryMatchesItems(app.id);
    const reader = await createRole(db, app.id, 'Reader');
    const read = await createPermission(db, app.id, {
      name: 'read',
      description: 'd',
      verb: 'GET',
      path: '/o',
    });
    const write = await createPermission(db, app.id, {
      name: 'write',
      description: '',
      verb: 'POST',
      path: '/o',
    });
    await setRolePermission(db, app.id, reader.id, read.id, true);
    await setRolePermission(db, app.id, reader.id, write.id, true);
    await summaryMatchesItems(app.id);
    await setRolePermission(db, app.id, reader.id, write.id, false);
    await renameRole(db, app.id, reader.id, 'Auditor');
    await deletePermission(db, app.id, write.id);
    await summaryMatchesItems(app.id);
    await deleteRole(db, app.id, reader.id);
    const after = rulesFromSummary(await getItem(db, keys.catalogue(app.id), true), app.id)!;
    expect(after.roles.map((r) => r.name)).toEqual(['Provider', 'Purchaser']);
    expect(after.switches.has(reader.id)).toBe(false);
  });

  it('is left as it was when the change is refused', async () => {
    const { app, roles } = await newApplication();
    const before = await getItem(db, keys.catalogue(app.id), true);
    await expect(deleteRole(db, app.id, roles[0]!.id)).rejects.toBeInstanceOf(AppError); // built in
    await expect(setRolePermission(db, app.id, roles[0]!.id, 99_999, true)).rejects.toBeInstanceOf(AppError);
    expect(await getItem(db, keys.catalogue(app.id), true)).toEqual(before);
  });
});

describe('organization role sets', () => {
  it('follow authorizing, changing and removing an organization’s roles', async () => {
    const { app, roles } = await newApplication();
    const [provider, purchaser] = roles;
    const org = await createOrganization(db, { name: 'Acme', description: '', ownerUserId: owner.id });
    await authorize(db, app.id, { kind: 'org', id: org.id }, provider!.id);
    await authorize(db, app.id, { kind: 'org', id: org.id }, purchaser!.id);
    await orgRolesMatchItems(app.id);
    await unauthorize(db, app.id, { kind: 'org', id: org.id }, provider!.id);
    await orgRolesMatchItems(app.id);
    await setSingleRole(db, app.id, { kind: 'org', id: org.id }, provider!.id);
    await orgRolesMatchItems(app.id);
    await expect(authorize(db, app.id, { kind: 'org', id: org.id }, 99_999)).rejects.toBeInstanceOf(AppError);
    await orgRolesMatchItems(app.id);
    // Keyrock's grants to the members alone or the owners alone, and both becoming the whole organization.
    const heldBy = async () =>
      (await orgRoleGrants(db, app.id, org.id)).find((g) => g.roleId === purchaser!.id)?.heldBy;
    expect(await setOrgRoleHolder(db, app.id, org.id, purchaser!.id, 'member', true)).toBe(true);
    expect(await heldBy()).toEqual(['member']);
    await orgRolesMatchItems(app.id);
    expect(await setOrgRoleHolder(db, app.id, org.id, purchaser!.id, 'member', true)).toBe(false);
    expect(await setOrgRoleHolder(db, app.id, org.id, purchaser!.id, 'owner', true)).toBe(true);
    expect(await heldBy()).toEqual(['owner', 'member']);
    await orgRolesMatchItems(app.id);
    expect(await setOrgRoleHolder(db, app.id, org.id, purchaser!.id, 'member', false)).toBe(true);
    expect(await heldBy()).toEqual(['owner']);
    await orgRolesMatchItems(app.id);
    expect(await setOrgRoleHolder(db, app.id, org.id, purchaser!.id, 'member', false)).toBe(false);
    await authorize(db, app.id, { kind: 'org', id: org.id }, purchaser!.id);
    expect(await heldBy()).toEqual(['owner', 'member']);
    await orgRolesMatchItems(app.id);
    await unauthorize(db, app.id, { kind: 'org', id: org.id }, purchaser!.id);
    expect(await heldBy()).toBeUndefined();
    await orgRolesMatchItems(app.id);
    await expect(setOrgRoleHolder(db, app.id, org.id, 99_999, 'owner', true)).rejects.toBeInstanceOf(
      AppError,
    );
    await orgRolesMatchItems(app.id);
  });

  it('start with an organization that owns a new application', async () => {
    const org = await createOrganization(db, { name: 'Owner org', description: '', ownerUserId: owner.id });
    const input = {
      name: 'Org app',
      description: 'x',
      url: 'https://o.example',
      callbackUrl: 'https://o.example/cb',
    };
    const { app } = await registerApplication(
      db,
      { kind: 'org', orgId: org.id, actorId: org.actorId },
      input,
    );
    await orgRolesMatchItems(app.id);
  });
});

describe('applications written before the summaries', () => {
  it('are answered the same without them, and again after npx idm migrate builds them', async () => {
    const { app, roles } = await newApplication();
    const member = await newUser();
    const org = await createOrganization(db, { name: 'Partners', description: '', ownerUserId: owner.id });
    await setMember(db, org.id, member.id, 'member');
    const reader = await createRole(db, app.id, 'Reader');
    const read = await createPermission(db, app.id, {
      name: 'read',
      description: '',
      verb: 'GET',
      path: '/o',
    });
    await setRolePermission(db, app.id, reader.id, read.id, true);
    await authorize(db, app.id, { kind: 'org', id: org.id }, reader.id);
    await authorize(db, app.id, { kind: 'user', id: member.id }, roles[1]!.id);
    // Keyrock's grants to the members alone and to the owners alone.
    const clerk = await createRole(db, app.id, 'Clerk');
    const boss = await createRole(db, app.id, 'Boss');
    await setOrgRoleHolder(db, app.id, org.id, clerk.id, 'member', true);
    await setOrgRoleHolder(db, app.id, org.id, boss.id, 'owner', true);
    const ownersView = async () =>
      (await resolveRoles(db, owner.id, app.id))!.memberships
        .filter((m) => m.membership.orgId === org.id)
        .map((m) => m.roles.map((x) => x.name));
    expect(await ownersView()).toEqual([['Reader', 'Boss']]);
    const answer = async () => {
      const r = await resolveRoles(db, member.id, app.id);
      return {
        direct: r!.direct.map((x) => x.name),
        viaOrgs: r!.memberships.map((m) => m.roles.map((x) => x.name)),
        rules: r!.rules,
      };
    };
    const withSummaries = await answer();
    expect(withSummaries).toMatchObject({ direct: ['Purchaser'], viaOrgs: [['Reader', 'Clerk']] });

    // As an older version left it: no summary items at all.
    const summaries = (await queryPartition(db, keys.appPartition(app.id))).filter(
      (i) => i.SK === 'CATALOGUE' || (i.SK as string).startsWith('ORGROLES#'),
    );
    expect(summaries.length).toBe(2);
    for (const i of summaries) {
      await db.doc.delete({ TableName: db.table, Key: { PK: i.PK, SK: i.SK } });
    }
    // A change made meanwhile writes part of a summary, which must not be trusted yet.
    await createRole(db, app.id, 'Late');
    const legacy = await answer();
    expect(legacy.direct).toEqual(withSummaries.direct);
    expect(legacy.viaOrgs).toEqual(withSummaries.viaOrgs);
    expect(legacy.rules.roles.map((r) => r.name)).toEqual([
      'Provider',
      'Purchaser',
      'Reader',
      'Clerk',
      'Boss',
      'Late',
    ]);
    expect(await ownersView()).toEqual([['Reader', 'Boss']]);

    const report = await rebuildSummaries(db);
    expect(report.catalogues).toBeGreaterThanOrEqual(1);
    await summaryMatchesItems(app.id);
    await orgRolesMatchItems(app.id);
    const migrated = await userInApplication(db, member.id, app.id);
    expect(migrated.rules.roles).toEqual(
      catalogueFrom(await queryPartition(db, keys.appPartition(app.id))).roles,
    );
    expect((await answer()).viaOrgs).toEqual([['Reader', 'Clerk']]);
    expect(await ownersView()).toEqual([['Reader', 'Boss']]);
    // Running it again finds nothing to do.
    expect(await rebuildSummaries(db)).toMatchObject({ catalogues: 0, orgRoles: 0 });
  });
});
