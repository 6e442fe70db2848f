import type { Role } from '../store/applications.js';
import type { Db } from '../store/db.js';
import {
  createPermission,
  createRole,
  deletePermission,
  deleteRole,
  type Permission,
  renameRole,
  setRolePermission,
  updatePermission,
} from '../store/roles.js';
import { permissionFields, roleName } from './validate.js';

/**
 * An application's own roles and permissions, and which permissions each role has (Keyrock's
 * role–permission assignments). Input is checked here, for the portal, the CLI and /v1 alike;
 * Provider and Purchaser are built in and stay (the store refuses to delete them).
 */
/** `keyrockId`: a role moved by `idm import keyrock`, claimed so it is never created twice. */
export function addRole(db: Db, appId: number, name: unknown, keyrockId?: string): Promise<Role> {
  return createRole(db, appId, roleName(name), keyrockId);
}

/** Renames a role of the application's own (Keyrock's PATCH); built-in roles keep their names. */
export function changeRoleName(db: Db, appId: number, roleId: number, name: unknown): Promise<void> {
  return renameRole(db, appId, roleId, roleName(name));
}

export function removeRole(db: Db, appId: number, roleId: number): Promise<void> {
  return deleteRole(db, appId, roleId);
}

export function addPermission(
  db: Db,
  appId: number,
  input: { name: unknown; description?: unknown; verb: unknown; path: unknown },
): Promise<Permission> {
  return createPermission(db, appId, permissionFields(input));
}

/** The fields of a permission, checked by the caller's rules (Keyrock's, for /v1). */
export type PermissionFields = Omit<Permission, 'id' | 'appId'>;

/**
 * Stores a permission whose fields were checked by Keyrock's rules (shared/keyrock/): from /v1,
 * or moved by `idm import keyrock` with its Keyrock id (claimed so it is never created twice).
 */
export function addCheckedPermission(
  db: Db,
  appId: number,
  fields: PermissionFields,
  keyrockId?: string,
): Promise<Permission> {
  return createPermission(db, appId, fields, keyrockId);
}

export function changePermission(db: Db, permission: Permission): Promise<void> {
  return updatePermission(db, permission);
}

export function removePermission(db: Db, appId: number, permissionId: number): Promise<void> {
  return deletePermission(db, appId, permissionId);
}

/** Switches a permission on or off for a role; both must exist in the application. */
export function switchPermission(
  db: Db,
  appId: number,
  roleId: number,
  permissionId: number,
  on: boolean,
): Promise<void> {
  return setRolePermission(db, appId, roleId, permissionId, on);
}
