import { notFound } from '../errors.js';
import type { Grantee } from '../model.js';
import { orgAuthorizationItem, userAuthorizationItem } from './applications.js';
import type { Db } from './db.js';
import { idFrom, keys } from './keys.js';
import { queryGsi1, queryPartition, TransactionFailed, transact } from './ops.js';
import { orgRolesSummary } from './summaries.js';

/**
 * Gives a user or an organization a role in an application. The role, the application and the
 * grantee must exist; checked in the same transaction as the write.
 */
export async function authorize(db: Db, appId: number, grantee: Grantee, roleId: number): Promise<void> {
  const exists = (key: { PK: string; SK: string }) => ({
    ConditionCheck: { TableName: db.table, Key: key, ConditionExpression: 'attribute_exists(PK)' },
  });
  const item =
    grantee.kind === 'user'
      ? userAuthorizationItem(appId, grantee.id, roleId)
      : orgAuthorizationItem(appId, grantee.id, roleId);
  try {
    await transact(db, [
      exists(keys.role(appId, roleId)),
      exists(grantee.kind === 'user' ? keys.user(grantee.id) : keys.organization(grantee.id)),
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
}

/** Users (GSI1) and organizations (application partition) holding roles in an application. */
export async function granteesOf(db: Db, appId: number): Promise<AuthorizedGrantee[]> {
  const [users, partition] = await Promise.all([
    queryGsi1(db, keys.appUsersPartition(appId)),
    queryPartition(db, keys.appPartition(appId), keys.orgAuthorizationPrefix),
  ]);
  const byGrantee = new Map<string, AuthorizedGrantee>();
  const add = (kind: 'user' | 'org', id: number, roleId: number) => {
    const k = `${kind}:${id}`;
    if (!byGrantee.has(k)) byGrantee.set(k, { kind, id, roleIds: [] });
    byGrantee.get(k)!.roleIds.push(roleId);
  };
  for (const i of users) add('user', i.userId as number, i.roleId as number);
  for (const i of partition) add('org', idFrom(i.SK as string, 1), i.roleId as number);
  return [...byGrantee.values()];
}
