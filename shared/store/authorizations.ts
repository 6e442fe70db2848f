import { notFound } from '../errors.js';
import { type Grantee, MEMBER_ROLES, type MemberRole } from '../model.js';
import { heldBy, orgAuthorizationItem, userAuthorizationItem } from './applications.js';
import type { Db } from './db.js';
import { idFrom, keys } from './keys.js';
import { getItem, queryGsi1, queryPartition, TransactionFailed, transact } from './ops.js';
import { orgRolesSummary } from './summaries.js';

/**
 * Gives a user or an organization a role in an application. The role, the application and the
 * grantee must exist; checked in the same transaction as the write.
 */
export async function authorize(db: Db, appId: number, grantee: Grantee, roleId: number): Promise<void> {
  const item =
    grantee.kind === 'user'
      ? userAuthorizationItem(appId, grantee.id, roleId)
      : orgAuthorizationItem(appId, grantee.id, roleId);
  try {
    await transact(db, [
      exists(db, keys.role(appId, roleId)),
      exists(db, grantee.kind === 'user' ? keys.user(grantee.id) : keys.organization(grantee.id)),
      { Put: { TableName: db.table, Item: item } },
      ...(grantee.kind === 'org' ? [orgRolesSummary.add(db, appId, grantee.id, roleId)] : []),
    ]);
  } catch (error) {
    if (error instanceof TransactionFailed) {
      if (error.failedAt(0)) throw notFound(`Role ${roleId} does not exist in application ${appId}.`);
      if (error.failedAt(1))
        throw notFound(`${grantee.kind === 'user' ? 'User' : 'Organization'} ${grantee.id} does not exist.`);
    }
    throw error;
  }
}

export async function unauthorize(db: Db, appId: number, grantee: Grantee, roleId: number): Promise<void> {
  if (grantee.kind === 'user') {
    const key = keys.userAuthorization(appId, grantee.id, roleId);
    await db.doc.delete({ TableName: db.table, Key: key });
    return;
  }
  await transact(db, [
    { Delete: { TableName: db.table, Key: keys.orgAuthorization(appId, grantee.id, roleId) } },
    orgRolesSummary.remove(db, appId, grantee.id, roleId),
  ]);
}

/**
 * Keyrock's grant of a role to an organization's members alone or its owners alone
 * (`/v1/applications/:id/organizations/:org/roles/:role/organization_roles/member|owner`), added
 * (`on`) or taken. The organization's grant is read, the new set of holders written with the
 * ORGROLES summary in one transaction conditioned on what was read; one holder that gains the
 * other becomes Gatehouse's whole-organization grant. Answers whether anything changed.
 */
export async function setOrgRoleHolder(
  db: Db,
  appId: number,
  orgId: number,
  roleId: number,
  holder: MemberRole,
  on: boolean,
): Promise<boolean> {
  const key = keys.orgAuthorization(appId, orgId, roleId);
  for (let attempt = 1; ; attempt++) {
    const item = await getItem(db, key, true);
    const before = item ? heldBy(item) : [];
    const after = MEMBER_ROLES.filter((r) => (r === holder ? on : before.includes(r)));
    if (after.length === before.length) return false;
    // What was read is still there: no item, a whole-organization grant, or one holder.
    const unchanged = !item
      ? { ConditionExpression: 'attribute_not_exists(PK)' }
      : before.length === 2
        ? { ConditionExpression: 'attribute_exists(PK) AND attribute_not_exists(heldBy)' }
        : {
            ConditionExpression: 'size(heldBy) = :one AND contains(heldBy, :was)',
            ExpressionAttributeValues: { ':one': 1, ':was': before[0]! },
          };
    const write =
      after.length === 0
        ? { Delete: { TableName: db.table, Key: key, ...unchanged } }
        : {
            Put: {
              TableName: db.table,
              Item: orgAuthorizationItem(appId, orgId, roleId, after),
              ...unchanged,
            },
          };
    try {
      await transact(db, [
        exists(db, keys.role(appId, roleId)),
        exists(db, keys.organization(orgId)),
        write,
        orgRolesSummary.place(db, appId, orgId, roleId, after),
      ]);
      return true;
    } catch (error) {
      if (error instanceof TransactionFailed) {
        if (error.failedAt(0)) throw notFound(`Role ${roleId} does not exist in application ${appId}.`);
        if (error.failedAt(1)) throw notFound(`Organization ${orgId} does not exist.`);
        // Changed by someone else since it was read: read it again.
        if (error.failedAt(2) && attempt < 3) continue;
      }
      throw error;
    }
  }
}

const exists = (db: Db, key: { PK: string; SK: string }) => ({
  ConditionCheck: { TableName: db.table, Key: key, ConditionExpression: 'attribute_exists(PK)' },
});

/** An organization's roles in an application, each with whom in the organization it is given to. */
export async function orgRoleGrants(
  db: Db,
  appId: number,
  orgId: number,
): Promise<{ roleId: number; heldBy: MemberRole[] }[]> {
  const items = await queryPartition(db, keys.appPartition(appId), `${keys.orgAuthorizationPrefix}${orgId}#`);
  return items.map((i) => ({ roleId: i.roleId as number, heldBy: heldBy(i) }));
}

/** Role ids a grantee holds in an application (strongly consistent). */
export async function rolesOf(db: Db, appId: number, grantee: Grantee): Promise<number[]> {
  const items =
    grantee.kind === 'user'
      ? await queryPartition(db, keys.userPartition(grantee.id), `${keys.userAuthorizationPrefix}${appId}#`)
      : await queryPartition(db, keys.appPartition(appId), `${keys.orgAuthorizationPrefix}${grantee.id}#`);
  return items.map((i) => i.roleId as number);
}

/**
 * Replaces every role a grantee holds in an application with one role (the portal's "change
 * role"), in one transaction.
 */
export async function setSingleRole(db: Db, appId: number, grantee: Grantee, roleId: number): Promise<void> {
  const current = await rolesOf(db, appId, grantee);
  const deletes = current
    .filter((r) => r !== roleId)
    .map((r) => ({
      Delete: {
        TableName: db.table,
        Key:
          grantee.kind === 'user'
            ? keys.userAuthorization(appId, grantee.id, r)
            : keys.orgAuthorization(appId, grantee.id, r),
      },
    }));
  const item =
    grantee.kind === 'user'
      ? userAuthorizationItem(appId, grantee.id, roleId)
      : orgAuthorizationItem(appId, grantee.id, roleId);
  try {
    await transact(db, [
      {
        ConditionCheck: {
          TableName: db.table,
          Key: keys.role(appId, roleId),
          ConditionExpression: 'attribute_exists(PK)',
        },
      },
      { Put: { TableName: db.table, Item: item } },
      ...deletes,
      ...(grantee.kind === 'org' ? [orgRolesSummary.replace(db, appId, grantee.id, [roleId])] : []),
    ]);
  } catch (error) {
    if (error instanceof TransactionFailed && error.failedAt(0))
      throw notFound(`Role ${roleId} does not exist in application ${appId}.`);
    throw error;
  }
}

export interface AuthorizedGrantee {
  kind: 'user' | 'org';
  id: number;
  roleIds: number[];
  /** An organization's roles given to its members alone or its owners alone (Keyrock's grants). */
  only: Map<number, MemberRole>;
}

/** Users (GSI1) and organizations (application partition) holding roles in an application. */
export async function granteesOf(db: Db, appId: number): Promise<AuthorizedGrantee[]> {
  const [users, partition] = await Promise.all([
    queryGsi1(db, keys.appUsersPartition(appId)),
    queryPartition(db, keys.appPartition(appId), keys.orgAuthorizationPrefix),
  ]);
  const byGrantee = new Map<string, AuthorizedGrantee>();
  const add = (kind: 'user' | 'org', id: number, roleId: number, holders?: MemberRole[]) => {
    const k = `${kind}:${id}`;
    if (!byGrantee.has(k)) byGrantee.set(k, { kind, id, roleIds: [], only: new Map() });
    const grantee = byGrantee.get(k)!;
    grantee.roleIds.push(roleId);
    if (holders?.length === 1) grantee.only.set(roleId, holders[0]!);
  };
  for (const i of users) add('user', i.userId as number, i.roleId as number);
  for (const i of partition) add('org', idFrom(i.SK as string, 1), i.roleId as number, heldBy(i));
  return [...byGrantee.values()];
}
