import { conflict, invalid, notFound } from '../errors.js';
import type { MemberRole } from '../model.js';
import { isoNow } from '../time.js';
import { aliasPut } from './aliases.js';
import type { Db } from './db.js';
import { keys } from './keys.js';
import {
  batchGet,
  findItem,
  getItem,
  type Item,
  nextIds,
  queryGsi1,
  queryPartition,
  statsAdd,
  TransactionFailed,
  transact,
} from './ops.js';

export interface Organization {
  id: number;
  actorId: number;
  name: string;
  description: string;
  createdAt: string;
  /** Keyrock's `website` column: an http(s) URL, or absent. */
  website?: string;
  /** Keyrock's id (a UUID) of an organization moved by `idm import keyrock`. */
  keyrockId?: string;
}

export interface Membership {
  orgId: number;
  orgActorId: number;
  orgName: string;
  /** The organization's Keyrock id, when it was moved from Keyrock (what /user answers with). */
  orgKeyrockId?: string;
  userId: number;
  role: MemberRole;
}

export function toOrganization(item: Item): Organization {
  return {
    id: item.id as number,
    actorId: item.actorId as number,
    name: item.name as string,
    description: (item.description as string) ?? '',
    createdAt: item.createdAt as string,
    ...(typeof item.website === 'string' && item.website !== '' ? { website: item.website } : {}),
    ...(typeof item.keyrockId === 'string' ? { keyrockId: item.keyrockId } : {}),
  };
}

export function toMembership(item: Item): Membership {
  return {
    orgId: item.orgId as number,
    orgActorId: item.orgActorId as number,
    orgName: item.orgName as string,
    ...(typeof item.orgKeyrockId === 'string' ? { orgKeyrockId: item.orgKeyrockId } : {}),
    userId: item.userId as number,
    role: item.role as MemberRole,
  };
}

function membershipItem(org: Organization, userId: number, role: MemberRole) {
  return {
    ...keys.membership(org.id, userId),
    ...keys.orgMembersGsi(org.id, userId),
    type: 'membership',
    orgId: org.id,
    orgActorId: org.actorId,
    orgName: org.name,
    ...(org.keyrockId ? { orgKeyrockId: org.keyrockId } : {}),
    userId,
    role,
  };
}

/** The organization, its actor pointer, its first owner and the total, in one transaction. */
export async function createOrganization(
  db: Db,
  input: {
    name: string;
    description: string;
    website?: string | undefined;
    ownerUserId: number;
    keyrockId?: string | undefined;
  },
): Promise<Organization> {
  const ids = await nextIds(db, { org: 1, actor: 1 });
  const org: Organization = {
    id: ids.org,
    actorId: ids.actor,
    name: input.name,
    description: input.description,
    createdAt: isoNow(),
    ...(input.website ? { website: input.website } : {}),
    ...(input.keyrockId ? { keyrockId: input.keyrockId } : {}),
  };
  try {
    await transact(db, [
      {
        ConditionCheck: {
          TableName: db.table,
          Key: keys.user(input.ownerUserId),
          ConditionExpression: 'attribute_exists(PK)',
        },
      },
      {
        Put: {
          TableName: db.table,
          Item: { ...keys.organization(org.id), type: 'organization', ...org, owners: 1 },
          ConditionExpression: 'attribute_not_exists(PK)',
        },
      },
      {
        Put: {
          TableName: db.table,
          Item: { ...keys.actor(org.actorId), type: 'actor', kind: 'org', id: org.id },
          ConditionExpression: 'attribute_not_exists(PK)',
        },
      },
      { Put: { TableName: db.table, Item: membershipItem(org, input.ownerUserId, 'owner') } },
      statsAdd(db, 'organizations', 1),
      // An organization moved from Keyrock claims its Keyrock id (pattern 22).
      ...(input.keyrockId
        ? [aliasPut(db, { kind: 'organization', keyrockId: input.keyrockId }, org.id)]
        : []),
    ]);
  } catch (error) {
    if (error instanceof TransactionFailed && error.failedAt(0)) {
      throw notFound(`User ${input.ownerUserId} does not exist.`);
    }
    if (error instanceof TransactionFailed && error.failedAt(5)) {
      throw conflict('This Keyrock organization was imported before.', 'keyrockId');
    }
    throw error;
  }
  return org;
}

export async function getOrganization(db: Db, orgId: number): Promise<Organization | undefined> {
  const item = await getItem(db, keys.organization(orgId));
  return item ? toOrganization(item) : undefined;
}

export async function requireOrganization(db: Db, orgId: number): Promise<Organization> {
  const org = await getOrganization(db, orgId);
  if (!org) throw notFound(`Organization ${orgId} does not exist.`);
  return org;
}

/** The organization and one user's membership in it, in one BatchGetItem (strongly consistent). */
export async function organizationWithMembership(
  db: Db,
  orgId: number,
  userId: number,
): Promise<{ org?: Organization; membership?: Membership }> {
  const items = await batchGet(db, [keys.organization(orgId), keys.membership(orgId, userId)], true);
  const org = findItem(items, keys.organization(orgId));
  const membership = findItem(items, keys.membership(orgId, userId));
  return {
    ...(org ? { org: toOrganization(org) } : {}),
    ...(membership ? { membership: toMembership(membership) } : {}),
  };
}

export async function getMembership(db: Db, orgId: number, userId: number): Promise<Membership | undefined> {
  const item = await getItem(db, keys.membership(orgId, userId), true);
  return item ? toMembership(item) : undefined;
}

/** Organizations by id, in one BatchGetItem per 100; unknown ids are absent from the map. */
export async function organizationsByIds(db: Db, orgIds: number[]): Promise<Map<number, Organization>> {
  const items = orgIds.length > 0 ? await batchGet(db, orgIds.map(keys.organization)) : [];
  return new Map(items.map((i) => [i.id as number, toOrganization(i)]));
}

/** Organizations a user belongs to (from the user's own partition). */
export async function membershipsOfUser(db: Db, userId: number): Promise<Membership[]> {
  const items = await queryPartition(db, keys.userPartition(userId), keys.membershipPrefix);
  return items.map(toMembership);
}

/** Members of an organization (GSI1, eventually consistent). */
export async function membersOfOrganization(db: Db, orgId: number): Promise<Membership[]> {
  const items = await queryGsi1(db, keys.orgMembersPartition(orgId));
  return items.map(toMembership).sort((a, b) => a.userId - b.userId);
}

/**
 * Adds a user to an organization or changes their role. The organization keeps a count of its
 * owners so that the last owner can never be demoted or removed (checked in the same transaction).
 */
export async function setMember(
  db: Db,
  orgId: number,
  userId: number,
  role: MemberRole,
): Promise<Membership> {
  const [org, current] = await Promise.all([
    requireOrganization(db, orgId),
    getMembership(db, orgId, userId),
  ]);
  if (current?.role === role) return current;
  const ownerDelta = (role === 'owner' ? 1 : 0) - (current?.role === 'owner' ? 1 : 0);
  const item = membershipItem(org, userId, role);
  try {
    await transact(db, [
      {
        ConditionCheck: {
          TableName: db.table,
          Key: keys.user(userId),
          ConditionExpression: 'attribute_exists(PK)',
        },
      },
      {
        Put: {
          TableName: db.table,
          Item: item,
          // Optimistic: the membership is as we read it, so the owner count stays right.
          ConditionExpression: current ? '#r = :r' : 'attribute_not_exists(PK)',
          ...(current
            ? {
                ExpressionAttributeNames: { '#r': 'role' },
                ExpressionAttributeValues: { ':r': current.role },
              }
            : {}),
        },
      },
      {
        Update: {
          TableName: db.table,
          Key: keys.organization(orgId),
          UpdateExpression: 'ADD owners :d',
          ConditionExpression: ownerDelta < 0 ? 'owners > :one' : 'attribute_exists(PK)',
          ExpressionAttributeValues: ownerDelta < 0 ? { ':d': ownerDelta, ':one': 1 } : { ':d': ownerDelta },
        },
      },
    ]);
  } catch (error) {
    if (error instanceof TransactionFailed) {
      if (error.failedAt(0)) throw notFound(`User ${userId} does not exist.`);
      if (error.failedAt(1)) throw conflict('The membership changed meanwhile; try again.');
      if (error.failedAt(2)) throw invalid('An organization must keep at least one owner.', 'role');
    }
    throw error;
  }
  return toMembership(item);
}

export async function removeMember(db: Db, orgId: number, userId: number): Promise<void> {
  const current = await getMembership(db, orgId, userId);
  if (!current) throw notFound(`User ${userId} is not a member of organization ${orgId}.`);
  const wasOwner = current.role === 'owner';
  try {
    await transact(db, [
      {
        Delete: {
          TableName: db.table,
          Key: keys.membership(orgId, userId),
          ConditionExpression: '#r = :r',
          ExpressionAttributeNames: { '#r': 'role' },
          ExpressionAttributeValues: { ':r': current.role },
        },
      },
      {
        Update: {
          TableName: db.table,
          Key: keys.organization(orgId),
          UpdateExpression: 'ADD owners :d',
          ConditionExpression: wasOwner ? 'owners > :one' : 'attribute_exists(PK)',
          ExpressionAttributeValues: wasOwner ? { ':d': -1, ':one': 1 } : { ':d': 0 },
        },
      },
    ]);
  } catch (error) {
    if (error instanceof TransactionFailed) {
      if (error.failedAt(0)) throw conflict('The membership changed meanwhile; try again.');
      if (error.failedAt(1)) throw invalid('An organization must keep at least one owner.', 'role');
    }
    throw error;
  }
}

/** DynamoDB's limit on the items of one TransactWriteItems. */
const TRANSACTION_LIMIT = 100;

type TransactItem = Parameters<typeof transact>[1][number];

/**
 * Changes an organization's name, description or website. Every membership item repeats the
 * name (GET /user reads it from the user's own partition), so a new name is written to them in
 * the same transaction while they fit in one; beyond that the profile goes first and the copies
 * follow in batches (readers of the copies tolerate a stale name for that moment).
 */
export async function updateOrganization(
  db: Db,
  org: Organization,
  changes: { name?: string | undefined; description?: string | undefined; website?: string | undefined },
): Promise<Organization> {
  const next: Organization = { ...org };
  if (changes.name !== undefined) next.name = changes.name;
  if (changes.description !== undefined) next.description = changes.description;
  if (changes.website !== undefined) {
    if (changes.website === '') delete next.website;
    else next.website = changes.website;
  }
  const profile: TransactItem = {
    Update: {
      TableName: db.table,
      Key: keys.organization(org.id),
      UpdateExpression: `SET #n = :n, description = :d${next.website ? ', website = :w' : ' REMOVE website'}`,
      ConditionExpression: 'attribute_exists(PK)',
      ExpressionAttributeNames: { '#n': 'name' },
      ExpressionAttributeValues: {
        ':n': next.name,
        ':d': next.description,
        ...(next.website ? { ':w': next.website } : {}),
      },
    },
  };
  const copies: TransactItem[] =
    next.name === org.name
      ? []
      : (await membersOfOrganization(db, org.id)).map((m) => ({
          Update: {
            TableName: db.table,
            Key: keys.membership(org.id, m.userId),
            UpdateExpression: 'SET orgName = :n',
            // A member removed meanwhile stays removed (no partial item is created).
            ConditionExpression: 'attribute_exists(PK)',
            ExpressionAttributeValues: { ':n': next.name },
          },
        }));
  const first = copies.length < TRANSACTION_LIMIT ? [profile, ...copies] : [profile];
  try {
    await transact(db, first);
  } catch (error) {
    if (error instanceof TransactionFailed) {
      if (error.failedAt(0)) throw notFound(`Organization ${org.id} does not exist.`);
      throw conflict('The organization changed meanwhile; try again.');
    }
    throw error;
  }
  if (first.length === 1) {
    for (let i = 0; i < copies.length; i += TRANSACTION_LIMIT) {
      // Each copy on its own: a failed condition only means that member left meanwhile, and
      // must not stop the other copies.
      await Promise.allSettled(copies.slice(i, i + TRANSACTION_LIMIT).map((c) => transact(db, [c])));
    }
  }
  return next;
}

/**
 * Deletes an organization with everything that names it: its profile and actor pointer, every
 * membership (in the members' partitions), its authorizations in applications with their
 * `APP#<id>/ORGROLES#<orgId>` summaries (pattern 19), and one off the total. One transaction
 * while it fits in DynamoDB's 100 items; otherwise the authorizations go first, each application
 * with its summary in one transaction (so a summary never disagrees with its authorizations),
 * then the memberships, and the profile last, so a failure halfway leaves an organization that
 * still exists and can be deleted again. The Keyrock alias stays, as it does for users, so a
 * second import does not bring the organization back.
 *
 * New members and authorizations need the profile (their transactions check it), so none can be
 * added once it is gone; the members and applications are read from GSI1, which may lag a write
 * made in the same second (docs/data-model.md).
 */
export async function deleteOrganization(db: Db, org: Organization): Promise<void> {
  const [members, authorizations] = await Promise.all([
    membersOfOrganization(db, org.id),
    queryGsi1(db, keys.orgAppsPartition(org.id)),
  ]);
  const byApp = new Map<number, number[]>();
  for (const a of authorizations) {
    const appId = a.appId as number;
    byApp.set(appId, [...(byApp.get(appId) ?? []), a.roleId as number]);
  }
  const appGroups: TransactItem[][] = [...byApp].map(([appId, roleIds]) => [
    ...roleIds.map((roleId) => ({
      Delete: { TableName: db.table, Key: keys.orgAuthorization(appId, org.id, roleId) },
    })),
    { Delete: { TableName: db.table, Key: keys.orgRoles(appId, org.id) } },
  ]);
  const memberItems: TransactItem[] = members.map((m) => ({
    Delete: { TableName: db.table, Key: keys.membership(org.id, m.userId) },
  }));
  const core: TransactItem[] = [
    {
      Delete: {
        TableName: db.table,
        Key: keys.organization(org.id),
        ConditionExpression: 'attribute_exists(PK)',
      },
    },
    {
      Delete: {
        TableName: db.table,
        Key: keys.actor(org.actorId),
        ConditionExpression: 'attribute_not_exists(PK) OR (kind = :org AND id = :id)',
        ExpressionAttributeValues: { ':org': 'org', ':id': org.id },
      },
    },
    statsAdd(db, 'organizations', -1),
  ];
  const all = [...core, ...memberItems, ...appGroups.flat()];
  let last = all;
  if (all.length > TRANSACTION_LIMIT) {
    for (const group of appGroups) {
      for (let i = 0; i < group.length; i += TRANSACTION_LIMIT) {
        await transact(db, group.slice(i, i + TRANSACTION_LIMIT));
      }
    }
    for (let i = 0; i < memberItems.length; i += TRANSACTION_LIMIT) {
      await transact(db, memberItems.slice(i, i + TRANSACTION_LIMIT));
    }
    last = core;
  }
  try {
    await transact(db, last);
  } catch (error) {
    if (error instanceof TransactionFailed && error.failedAt(0)) {
      throw notFound(`Organization ${org.id} does not exist.`);
    }
    throw error;
  }
}
