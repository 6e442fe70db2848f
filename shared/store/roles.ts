import { conflict, invalid, notFound } from '../errors.js';
import type { HttpVerb } from '../model.js';
import { aliasPut } from './aliases.js';
import { type Role, roleItem, toRole } from './applications.js';
import type { Db } from './db.js';
import { idFrom, keys } from './keys.js';
import { type Item, nextIds, queryPartitionFrom, TransactionFailed, transact } from './ops.js';
import { catalogueSummary } from './summaries.js';

export interface Permission {
  id: number;
  appId: number;
  name: string;
  description: string;
  verb: HttpVerb;
  path: string;
  /** Keyrock's `is_regex`: `path` is a pattern (checked when stored, shared/keyrock/regex.ts). */
  isRegex?: boolean | undefined;
  /**
   * Keyrock's `authorization_service_header`: the value a PEP proxy's service header must carry,
   * required only while `useServiceHeader` is on (Keyrock's `use_authorization_service_header`).
   */
  serviceHeader?: string | undefined;
  useServiceHeader?: boolean | undefined;
}

export function toPermission(item: Item): Permission {
  return {
    id: item.id as number,
    appId: item.appId as number,
    name: item.name as string,
    description: (item.description as string) ?? '',
    verb: item.verb as HttpVerb,
    path: item.path as string,
    isRegex: item.isRegex === true ? true : undefined,
    serviceHeader: item.serviceHeader as string | undefined,
    useServiceHeader: item.useServiceHeader === true ? true : undefined,
  };
}

const appExists = (db: Db, appId: number) => ({
  ConditionCheck: {
    TableName: db.table,
    Key: keys.application(appId),
    ConditionExpression: 'attribute_exists(PK)',
  },
});

/**
 * A role of the application's own. `keyrockId`: the id of a role moved by `idm import keyrock`,
 * claimed in the same transaction (store/aliases.ts), so the role is never created twice.
 */
export async function createRole(db: Db, appId: number, name: string, keyrockId?: string): Promise<Role> {
  const { role: id } = await nextIds(db, { role: 1 });
  const role: Role = { id, appId, name };
  try {
    await transact(db, [
      appExists(db, appId),
      { Put: { TableName: db.table, Item: roleItem(role) } },
      catalogueSummary.putRole(db, role),
      ...(keyrockId ? [aliasPut(db, { kind: 'role', keyrockId }, id)] : []),
    ]);
  } catch (error) {
    if (error instanceof TransactionFailed && error.failedAt(0))
      throw notFound(`Application ${appId} does not exist.`);
    if (error instanceof TransactionFailed && error.failedAt(3))
      throw conflict('This Keyrock role was imported before.', 'keyrockId');
    throw error;
  }
  return role;
}

export async function renameRole(db: Db, appId: number, roleId: number, name: string): Promise<void> {
  try {
    await transact(db, [
      {
        Update: {
          TableName: db.table,
          Key: keys.role(appId, roleId),
          UpdateExpression: 'SET #n = :n',
          ConditionExpression: 'attribute_exists(PK) AND attribute_not_exists(builtIn)',
          ExpressionAttributeNames: { '#n': 'name' },
          ExpressionAttributeValues: { ':n': name },
        },
      },
      catalogueSummary.putRole(db, { id: roleId, appId, name }),
    ]);
  } catch (error) {
    if (error instanceof TransactionFailed && error.failedAt(0))
      throw invalid('This role does not exist or is built in and cannot be renamed.', 'name');
    throw error;
  }
}

/** Deletes a role the application defined itself; Provider and Purchaser stay. */
export async function deleteRole(db: Db, appId: number, roleId: number): Promise<void> {
  try {
    await transact(db, [
      {
        Delete: {
          TableName: db.table,
          Key: keys.role(appId, roleId),
          ConditionExpression: 'attribute_exists(PK) AND attribute_not_exists(builtIn)',
        },
      },
      catalogueSummary.removeRole(db, appId, roleId),
    ]);
  } catch (error) {
    if (error instanceof TransactionFailed && error.failedAt(0))
      throw invalid('This role does not exist or is built in and cannot be deleted.');
    throw error;
  }
}

/** A permission; `keyrockId` as for createRole. */
export async function createPermission(
  db: Db,
  appId: number,
  input: Omit<Permission, 'id' | 'appId'>,
  keyrockId?: string,
): Promise<Permission> {
  const { permission: id } = await nextIds(db, { permission: 1 });
  const permission: Permission = { id, appId, ...input };
  try {
    await transact(db, [
      appExists(db, appId),
      {
        Put: {
          TableName: db.table,
          Item: { ...keys.permission(appId, id), type: 'permission', ...permission },
        },
      },
      catalogueSummary.putPermission(db, appId, permission),
      ...(keyrockId ? [aliasPut(db, { kind: 'permission', keyrockId }, id)] : []),
    ]);
  } catch (error) {
    if (error instanceof TransactionFailed && error.failedAt(0))
      throw notFound(`Application ${appId} does not exist.`);
    if (error instanceof TransactionFailed && error.failedAt(3))
      throw conflict('This Keyrock permission was imported before.', 'keyrockId');
    throw error;
  }
  return permission;
}

/**
 * Replaces a permission's fields (Keyrock's PATCH), with its summary entry, in one transaction;
 * 404 when it is gone.
 */
export async function updatePermission(db: Db, permission: Permission): Promise<void> {
  try {
    await transact(db, [
      {
        Put: {
          TableName: db.table,
          Item: { ...keys.permission(permission.appId, permission.id), type: 'permission', ...permission },
          ConditionExpression: 'attribute_exists(PK)',
        },
      },
      catalogueSummary.putPermission(db, permission.appId, permission),
    ]);
  } catch (error) {
    if (error instanceof TransactionFailed && error.failedAt(0))
      throw notFound(`Permission ${permission.id} does not exist in application ${permission.appId}.`);
    throw error;
  }
}

export async function deletePermission(db: Db, appId: number, permissionId: number): Promise<void> {
  await transact(db, [
    { Delete: { TableName: db.table, Key: keys.permission(appId, permissionId) } },
    catalogueSummary.removePermission(db, appId, permissionId),
  ]);
}

/** Switches a permission on or off for a role; both must exist in the application. */
export async function setRolePermission(
  db: Db,
  appId: number,
  roleId: number,
  permissionId: number,
  on: boolean,
): Promise<void> {
  const exists = (key: { PK: string; SK: string }) => ({
    ConditionCheck: { TableName: db.table, Key: key, ConditionExpression: 'attribute_exists(PK)' },
  });
  const key = keys.rolePermission(appId, roleId, permissionId);
  try {
    await transact(db, [
      exists(keys.role(appId, roleId)),
      exists(keys.permission(appId, permissionId)),
      on
        ? {
            Put: {
              TableName: db.table,
              Item: { ...key, type: 'rolePermission', appId, roleId, permissionId },
            },
          }
        : { Delete: { TableName: db.table, Key: key } },
      catalogueSummary.switchPermission(db, appId, roleId, permissionId, on),
    ]);
  } catch (error) {
    if (error instanceof TransactionFailed) {
      if (error.failedAt(0)) throw notFound(`Role ${roleId} does not exist in application ${appId}.`);
      if (error.failedAt(1))
        throw notFound(`Permission ${permissionId} does not exist in application ${appId}.`);
    }
    throw error;
  }
}

/** Roles, permissions and switches of an application, read from items of its partition. */
export interface RoleCatalogue {
  roles: Role[];
  permissions: Permission[];
  /** roleId → ids of the permissions switched on for it */
  switches: Map<number, Set<number>>;
}

export function catalogueFrom(items: Item[]): RoleCatalogue {
  const roles: Role[] = [];
  const permissions: Permission[] = [];
  const switches = new Map<number, Set<number>>();
  for (const item of items) {
    const sk = item.SK as string;
    if (sk.startsWith(keys.rolePrefix)) roles.push(toRole(item));
    else if (sk.startsWith(keys.permissionPrefix)) permissions.push(toPermission(item));
    else if (sk.startsWith(keys.rolePermissionPrefix)) {
      const roleId = idFrom(sk, 1);
      if (!switches.has(roleId)) switches.set(roleId, new Set());
      switches.get(roleId)!.add(idFrom(sk, 2));
    }
  }
  roles.sort((a, b) => a.id - b.id);
  permissions.sort((a, b) => a.id - b.id);
  return { roles, permissions, switches };
}

/** The role catalogue alone: the range SK >= PERM# of APP#<id> (keys.appCatalogueStart). */
export async function roleCatalogue(db: Db, appId: number): Promise<RoleCatalogue> {
  return catalogueFrom(await queryPartitionFrom(db, keys.appPartition(appId), keys.appCatalogueStart));
}
