import { beforeAll, describe, expect, it } from 'vitest';
import { sha256 } from '../shared/crypto.js';
import { registerUser } from '../shared/domain/accounts.js';
import { registerApplication } from '../shared/domain/applications.js';
import { AppError } from '../shared/errors.js';
import {
  appIdsOfOrganization,
  appIdsOfUser,
  deleteApplication,
  getApplication,
  getClient,
  updateApplication,
} from '../shared/store/applications.js';
import {
  authorize,
  granteesOf,
  rolesOf,
  setSingleRole,
  unauthorize,
} from '../shared/store/authorizations.js';
import type { Db } from '../shared/store/db.js';
import { keys } from '../shared/store/keys.js';
import { getItem, queryPartition, queryPartitionFrom } from '../shared/store/ops.js';
import {
  createOrganization,
  getMembership,
  membershipsOfUser,
  membersOfOrganization,
  removeMember,
  setMember,
} from '../shared/store/organizations.js';
import {
  createPermission,
  createRole,
  deletePermission,
  deleteRole,
  renameRole,
  roleCatalogue,
  setRolePermission,
} from '../shared/store/roles.js';
import { totals } from '../shared/store/stats.js';
import { createUser, getLogin, getUser, type User, userIdByNick } from '../shared/store/users.js';
import { testDb } from './support/service.js';

let db: Db;
beforeAll(async () => {
  db = await testDb();
});

let serial = 0;
/** A user with unique email and nickName for tests that don't care about them. */
function newUser(target: Db = db): Promise<User> {
  serial++;
  return createUser(target, {
    email: `u${serial}@example.com`,
    nickName: `u${serial}`,
    displayName: `User ${serial}`,
    passwordHash: 'hash',
  });
}

/** The AppError a promise rejects with (fails the test when it resolves or throws something else). */
async function appError(promise: Promise<unknown>): Promise<AppError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(AppError);
  return error as AppError;
}

describe('users', () => {
  it('stores the profile, login, nickName claim and actor pointer, and counts the user', async () => {
    const fresh = await testDb();
    const user = await createUser(fresh, {
      email: 'alice@example.com',
      nickName: 'Alice',
      displayName: 'Alice A',
      passwordHash: 'h1',
    });
    expect(user).toMatchObject({ id: 1, actorId: 1, email: 'alice@example.com', nickName: 'Alice' });
    expect(await getUser(fresh, user.id)).toEqual(user);
    expect(await getLogin(fresh, 'ALICE@example.com')).toEqual({
      userId: user.id,
      passwordHash: 'h1',
      emailVerified: true,
    });
    expect(await userIdByNick(fresh, 'alice')).toBe(user.id);
    expect(await getItem(fresh, keys.actor(user.actorId))).toMatchObject({ kind: 'user', id: user.id });
    expect(await totals(fresh)).toEqual({ users: 1, organizations: 0 });
  });

  it('refuses a duplicate email whatever its case, as a whole: no user, nick, actor or count is left', async () => {
    const fresh = await testDb();
    await createUser(fresh, {
      email: 'bob@example.com',
      nickName: 'bob',
      displayName: 'B',
      passwordHash: 'h',
    });
    const error = await appError(
      createUser(fresh, {
        email: 'BOB@Example.com',
        nickName: 'bobby',
        displayName: 'B2',
        passwordHash: 'h',
      }),
    );
    expect(error).toMatchObject({ kind: 'conflict', field: 'email' });
    // The failed attempt drew user id 2 and actor id 2; nothing under them may exist.
    expect(await getUser(fresh, 2)).toBeUndefined();
    expect(await getItem(fresh, keys.actor(2))).toBeUndefined();
    expect(await userIdByNick(fresh, 'bobby')).toBeUndefined();
    expect(await queryPartition(fresh, keys.userPartition(2))).toEqual([]);
    expect(await totals(fresh)).toEqual({ users: 1, organizations: 0 });
  });

  it('refuses a nickName taken in another case, leaving no login behind', async () => {
    const first = await newUser();
    const error = await appError(
      createUser(db, {
        email: 'other-nick@example.com',
        nickName: first.nickName.toUpperCase(),
        displayName: 'X',
        passwordHash: 'h',
      }),
    );
    expect(error).toMatchObject({ kind: 'conflict', field: 'nickName' });
    expect(await getLogin(db, 'other-nick@example.com')).toBeUndefined();
  });

  it('registerUser validates, lower-cases the email and hashes the password with bcrypt', async () => {
    const user = await registerUser(db, { email: 'Carol@Example.com', password: 'correct horse' }, 4);
    // Without nickName and name, both come from the (lower-cased) email's local part.
    expect(user).toMatchObject({ email: 'carol@example.com', nickName: 'carol', displayName: 'carol' });
    const login = await getLogin(db, 'carol@example.com');
    expect(login?.passwordHash).toMatch(/^\$2[aby]\$04\$/);
    expect(login?.passwordHash).not.toContain('correct horse');
    expect(await appError(registerUser(db, { email: 'nope', password: 'long enough' }, 4))).toMatchObject({
      kind: 'validation',
      field: 'email',
    });
    expect(await appError(registerUser(db, { email: 'd@example.com', password: 'short' }, 4))).toMatchObject({
      kind: 'validation',
      field: 'password',
    });
  });

  it('50 parallel creations get 50 distinct ids and a total of 50', async () => {
    const fresh = await testDb();
    const users = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        createUser(fresh, {
          email: `p${i}@example.com`,
          nickName: `p${i}`,
          displayName: `P${i}`,
          passwordHash: 'h',
        }),
      ),
    );
    expect(new Set(users.map((u) => u.id)).size).toBe(50);
    expect(new Set(users.map((u) => u.actorId)).size).toBe(50);
    expect(Math.max(...users.map((u) => u.id))).toBe(50);
    expect(await totals(fresh)).toEqual({ users: 50, organizations: 0 });
  });
});

describe('organizations', () => {
  it('creates the organization with its creator as the one owner and counts it', async () => {
    const fresh = await testDb();
    const owner = await newUser(fresh);
    const org = await createOrganization(fresh, { name: 'Acme', description: 'd', ownerUserId: owner.id });
    // Users and organizations draw actor ids from one counter.
    expect(org).toMatchObject({ id: 1, actorId: owner.actorId + 1, name: 'Acme', description: 'd' });
    expect(await getItem(fresh, keys.organization(org.id))).toMatchObject({ owners: 1 });
    expect(await getItem(fresh, keys.actor(org.actorId))).toMatchObject({ kind: 'org', id: org.id });
    expect(await membershipsOfUser(fresh, owner.id)).toEqual([
      { orgId: org.id, orgActorId: org.actorId, orgName: 'Acme', userId: owner.id, role: 'owner' },
    ]);
    expect(await totals(fresh)).toEqual({ users: 1, organizations: 1 });
  });

  it('refuses an unknown owner and writes nothing', async () => {
    const fresh = await testDb();
    const error = await appError(createOrganization(fresh, { name: 'X', description: '', ownerUserId: 999 }));
    expect(error).toMatchObject({ kind: 'not_found', message: 'User 999 does not exist.' });
    expect(await getItem(fresh, keys.organization(1))).toBeUndefined();
    expect(await getItem(fresh, keys.membership(1, 999))).toBeUndefined();
    expect(await totals(fresh)).toEqual({ users: 0, organizations: 0 });
  });

  it('adds members, promotes and demotes owners, and never loses the last owner', async () => {
    const [a, b] = [await newUser(), await newUser()];
    const org = await createOrganization(db, { name: 'Team', description: '', ownerUserId: a.id });
    expect(await setMember(db, org.id, b.id, 'member')).toMatchObject({ userId: b.id, role: 'member' });
    expect((await membersOfOrganization(db, org.id)).map((m) => [m.userId, m.role])).toEqual([
      [a.id, 'owner'],
      [b.id, 'member'],
    ]);

    // The last owner can be neither demoted nor removed.
    expect(await appError(setMember(db, org.id, a.id, 'member'))).toMatchObject({
      kind: 'validation',
      message: 'An organization must keep at least one owner.',
    });
    expect(await appError(removeMember(db, org.id, a.id))).toMatchObject({ kind: 'validation' });
    expect((await getMembership(db, org.id, a.id))?.role).toBe('owner');

    // With a second owner, the first may step down.
    await setMember(db, org.id, b.id, 'owner');
    expect(await getItem(db, keys.organization(org.id))).toMatchObject({ owners: 2 });
    await setMember(db, org.id, a.id, 'member');
    await removeMember(db, org.id, a.id);
    expect(await getItem(db, keys.organization(org.id))).toMatchObject({ owners: 1 });
    expect(await getMembership(db, org.id, a.id)).toBeUndefined();
    expect(await appError(removeMember(db, org.id, b.id))).toMatchObject({ kind: 'validation' });
  });

  it('refuses unknown users and organizations for membership', async () => {
    const a = await newUser();
    const org = await createOrganization(db, { name: 'O', description: '', ownerUserId: a.id });
    expect(await appError(setMember(db, org.id, 99_999, 'member'))).toMatchObject({ kind: 'not_found' });
    expect(await getMembership(db, org.id, 99_999)).toBeUndefined();
    expect(await appError(setMember(db, 99_999, a.id, 'member'))).toMatchObject({ kind: 'not_found' });
    expect(await appError(removeMember(db, org.id, 99_999))).toMatchObject({ kind: 'not_found' });
  });
});

const appInput = {
  name: 'Shop',
  description: 'A shop',
  url: 'https://shop.example',
  callbackUrl: 'https://shop.example/cb',
};

describe('applications', () => {
  it('creates the app, its client item, Provider and Purchaser, and the owner as Provider', async () => {
    const owner = await newUser();
    const { app, roles, clientSecret } = await registerApplication(
      db,
      { kind: 'user', userId: owner.id, actorId: owner.actorId },
      appInput,
    );
    expect(roles.map((r) => [r.name, r.builtIn])).toEqual([
      ['Provider', 'provider'],
      ['Purchaser', 'purchaser'],
    ]);
    expect(clientSecret).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const client = await getClient(db, app.clientId);
    expect(client).toMatchObject({ appId: app.id, callbackUrl: appInput.callbackUrl });
    // Only the digest is stored.
    expect(client?.secretHash).toBe(sha256(clientSecret));
    expect(await rolesOf(db, app.id, { kind: 'user', id: owner.id })).toEqual([roles[0]!.id]);
    expect(await appIdsOfUser(db, owner.id)).toEqual([app.id]);
    expect(app.grantTypes).toHaveLength(5);
  });

  it('an organization can own an application', async () => {
    const u = await newUser();
    const org = await createOrganization(db, { name: 'Owners', description: '', ownerUserId: u.id });
    const { app, roles } = await registerApplication(
      db,
      { kind: 'org', orgId: org.id, actorId: org.actorId },
      appInput,
    );
    expect(await rolesOf(db, app.id, { kind: 'org', id: org.id })).toEqual([roles[0]!.id]);
    expect(await appIdsOfOrganization(db, org.id)).toEqual([app.id]);
  });

  it('refuses an unknown owner and leaves no application, client or role', async () => {
    const fresh = await testDb();
    const error = await appError(
      registerApplication(fresh, { kind: 'user', userId: 42, actorId: 42 }, appInput),
    );
    expect(error).toMatchObject({ kind: 'not_found', message: 'User 42 does not exist.' });
    expect(await queryPartition(fresh, keys.appPartition(1))).toEqual([]);
    expect(await queryPartition(fresh, keys.userPartition(42))).toEqual([]);
  });

  it('updates the application and its client item together', async () => {
    const owner = await newUser();
    const { app } = await registerApplication(
      db,
      { kind: 'user', userId: owner.id, actorId: owner.actorId },
      appInput,
    );
    await updateApplication(db, app.id, { name: 'Shop 2', callbackUrl: 'https://shop.example/cb2' });
    expect(await getApplication(db, app.id)).toMatchObject({
      name: 'Shop 2',
      description: 'A shop',
      callbackUrl: 'https://shop.example/cb2',
    });
    expect(await getClient(db, app.clientId)).toMatchObject({
      name: 'Shop 2',
      callbackUrl: 'https://shop.example/cb2',
    });
    expect(await appError(updateApplication(db, 99_999, { name: 'x' }))).toMatchObject({ kind: 'not_found' });
  });

  it('deletes the application with its client, roles, permissions and authorizations', async () => {
    const owner = await newUser();
    const other = await newUser();
    const { app, roles } = await registerApplication(
      db,
      { kind: 'user', userId: owner.id, actorId: owner.actorId },
      appInput,
    );
    const perm = await createPermission(db, app.id, { name: 'p', description: '', verb: 'GET', path: '/p' });
    await setRolePermission(db, app.id, roles[0]!.id, perm.id, true);
    await authorize(db, app.id, { kind: 'user', id: other.id }, roles[1]!.id);
    await deleteApplication(db, app.id);
    expect(await getApplication(db, app.id)).toBeUndefined();
    expect(await getClient(db, app.clientId)).toBeUndefined();
    expect(await queryPartition(db, keys.appPartition(app.id))).toEqual([]);
    expect(await appIdsOfUser(db, owner.id)).toEqual([]);
    expect(await appIdsOfUser(db, other.id)).toEqual([]);
  });
});

describe('roles, permissions and switches', () => {
  it('creates roles and permissions, switches them on and off, and reads the catalogue', async () => {
    const owner = await newUser();
    const { app } = await registerApplication(
      db,
      { kind: 'user', userId: owner.id, actorId: owner.actorId },
      appInput,
    );
    const role = await createRole(db, app.id, 'Editor');
    const read = await createPermission(db, app.id, {
      name: 'read',
      description: 'r',
      verb: 'GET',
      path: '/a',
    });
    const write = await createPermission(db, app.id, {
      name: 'write',
      description: '',
      verb: 'PUT',
      path: '/a',
    });
    await setRolePermission(db, app.id, role.id, read.id, true);
    await setRolePermission(db, app.id, role.id, write.id, true);
    await setRolePermission(db, app.id, role.id, write.id, false);
    const catalogue = await roleCatalogue(db, app.id);
    expect(catalogue.roles.map((r) => r.name)).toEqual(['Provider', 'Purchaser', 'Editor']);
    expect(catalogue.permissions.map((p) => [p.name, p.verb, p.path])).toEqual([
      ['read', 'GET', '/a'],
      ['write', 'PUT', '/a'],
    ]);
    expect([...(catalogue.switches.get(role.id) ?? [])]).toEqual([read.id]);

    await renameRole(db, app.id, role.id, 'Writer');
    await deletePermission(db, app.id, write.id);
    expect((await roleCatalogue(db, app.id)).permissions.map((p) => p.id)).toEqual([read.id]);
    await deleteRole(db, app.id, role.id);
    expect((await roleCatalogue(db, app.id)).roles.map((r) => r.name)).toEqual(['Provider', 'Purchaser']);
  });

  it('reads the role catalogue as one key range, without the organization authorizations', async () => {
    const owner = await newUser();
    const { app } = await registerApplication(
      db,
      { kind: 'user', userId: owner.id, actorId: owner.actorId },
      appInput,
    );
    const role = await createRole(db, app.id, 'Auditor');
    const permission = await createPermission(db, app.id, {
      name: 'audit',
      description: '',
      verb: 'GET',
      path: '/audit',
    });
    await setRolePermission(db, app.id, role.id, permission.id, true);
    const org = await createOrganization(db, { name: 'Auditors', description: '', ownerUserId: owner.id });
    await authorize(db, app.id, { kind: 'org', id: org.id }, role.id);

    const range = await queryPartitionFrom(db, keys.appPartition(app.id), keys.appCatalogueStart);
    const whole = await queryPartition(db, keys.appPartition(app.id));
    // Everything but the metadata and the organization authorizations, and nothing else.
    const outside = ['application', 'orgAuthorization', 'catalogue', 'orgRoles'];
    const expected = whole.filter((i) => !outside.includes(i.type as string));
    expect(range.map((i) => i.SK).sort()).toEqual(expected.map((i) => i.SK).sort());
    expect(new Set(range.map((i) => i.type))).toEqual(new Set(['role', 'permission', 'rolePermission']));
    expect(whole.some((i) => i.type === 'orgAuthorization')).toBe(true);
  });

  it('keeps Provider and Purchaser: they cannot be renamed or deleted', async () => {
    const owner = await newUser();
    const { app, roles } = await registerApplication(
      db,
      { kind: 'user', userId: owner.id, actorId: owner.actorId },
      appInput,
    );
    expect(await appError(renameRole(db, app.id, roles[0]!.id, 'Boss'))).toMatchObject({
      kind: 'validation',
    });
    expect(await appError(deleteRole(db, app.id, roles[1]!.id))).toMatchObject({ kind: 'validation' });
    expect((await roleCatalogue(db, app.id)).roles.map((r) => r.name)).toEqual(['Provider', 'Purchaser']);
  });

  it('refuses roles and permissions in unknown applications, and switches of unknown ids', async () => {
    expect(await appError(createRole(db, 99_999, 'R'))).toMatchObject({
      kind: 'not_found',
      message: 'Application 99999 does not exist.',
    });
    expect(
      await appError(createPermission(db, 99_999, { name: 'p', description: '', verb: 'GET', path: '/' })),
    ).toMatchObject({ kind: 'not_found' });
    const owner = await newUser();
    const { app, roles } = await registerApplication(
      db,
      { kind: 'user', userId: owner.id, actorId: owner.actorId },
      appInput,
    );
    expect(await appError(setRolePermission(db, app.id, roles[0]!.id, 99_999, true))).toMatchObject({
      kind: 'not_found',
      message: `Permission 99999 does not exist in application ${app.id}.`,
    });
    expect(await appError(setRolePermission(db, app.id, 99_999, 1, true))).toMatchObject({
      kind: 'not_found',
    });
    expect((await roleCatalogue(db, app.id)).switches.size).toBe(0);
  });
});

describe('authorizations', () => {
  it('gives users and organizations roles, lists grantees, changes and removes roles', async () => {
    const owner = await newUser();
    const member = await newUser();
    const org = await createOrganization(db, { name: 'Buyers', description: '', ownerUserId: member.id });
    const { app, roles } = await registerApplication(
      db,
      { kind: 'user', userId: owner.id, actorId: owner.actorId },
      appInput,
    );
    const [provider, purchaser] = roles as [(typeof roles)[0], (typeof roles)[0]];
    await authorize(db, app.id, { kind: 'user', id: member.id }, purchaser.id);
    await authorize(db, app.id, { kind: 'org', id: org.id }, purchaser.id);
    expect(await rolesOf(db, app.id, { kind: 'user', id: member.id })).toEqual([purchaser.id]);
    expect(await appIdsOfOrganization(db, org.id)).toEqual([app.id]);
    const grantees = await granteesOf(db, app.id);
    expect(grantees).toEqual(
      expect.arrayContaining([
        { kind: 'user', id: owner.id, roleIds: [provider.id], only: new Map() },
        { kind: 'user', id: member.id, roleIds: [purchaser.id], only: new Map() },
        { kind: 'org', id: org.id, roleIds: [purchaser.id], only: new Map() },
      ]),
    );
    expect(grantees).toHaveLength(3);

    await authorize(db, app.id, { kind: 'user', id: member.id }, provider.id);
    await setSingleRole(db, app.id, { kind: 'user', id: member.id }, provider.id);
    expect(await rolesOf(db, app.id, { kind: 'user', id: member.id })).toEqual([provider.id]);
    await unauthorize(db, app.id, { kind: 'user', id: member.id }, provider.id);
    expect(await rolesOf(db, app.id, { kind: 'user', id: member.id })).toEqual([]);
  });

  it('refuses unknown roles, users and organizations and writes nothing', async () => {
    const owner = await newUser();
    const { app, roles } = await registerApplication(
      db,
      { kind: 'user', userId: owner.id, actorId: owner.actorId },
      appInput,
    );
    expect(await appError(authorize(db, app.id, { kind: 'user', id: owner.id }, 99_999))).toMatchObject({
      kind: 'not_found',
      message: `Role 99999 does not exist in application ${app.id}.`,
    });
    expect(await appError(authorize(db, app.id, { kind: 'user', id: 99_999 }, roles[1]!.id))).toMatchObject({
      kind: 'not_found',
      message: 'User 99999 does not exist.',
    });
    expect(await appError(authorize(db, app.id, { kind: 'org', id: 99_999 }, roles[1]!.id))).toMatchObject({
      kind: 'not_found',
      message: 'Organization 99999 does not exist.',
    });
    // A role of another application is not a role of this one.
    const { app: other, roles: otherRoles } = await registerApplication(
      db,
      { kind: 'user', userId: owner.id, actorId: owner.actorId },
      appInput,
    );
    expect(
      await appError(authorize(db, app.id, { kind: 'user', id: owner.id }, otherRoles[1]!.id)),
    ).toMatchObject({ kind: 'not_found' });
    expect(other.id).not.toBe(app.id);
    expect(await granteesOf(db, app.id)).toEqual([
      { kind: 'user', id: owner.id, roleIds: [roles[0]!.id], only: new Map() },
    ]);
  });
});
