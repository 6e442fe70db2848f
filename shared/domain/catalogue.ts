import type { Role } from '../store/applications.js';
import type { Db } from '../store/db.js';
import {
  createPermission,
  createRole,
  deletePermission,
  deleteRole,
  type Permission,
  setRolePermission,
} from '../store/roles.js';
import { permissionFields, roleName } from './validate.js';

/**
 * An application's own roles and permissions, and which permissions each role has (Keyrock's
 * role–permission assignments). Input is checked here, for the portal, the CLI and /v1 alike;
 * Provider and Purchaser are built in and stay (the store refuses to delete them).
 */
export function addRole(db: Db, appId: number, name: unknown): Promise<Role> {
  return createRole(db, appId, roleName(name));
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
