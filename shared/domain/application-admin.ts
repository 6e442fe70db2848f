import { AppError, forbidden, notFound } from '../errors.js';
import { type Grantee, MEMBER_ROLES, type MemberRole } from '../model.js';
import {
  type Application,
  appIdsOfOrganization,
  appIdsOfUser,
  applicationsByIds,
  getClient,
  type Role,
} from '../store/applications.js';
import {
  granteesOf,
  orgRoleGrants,
  rolesOf,
  setOrgRoleHolder,
  unauthorize,
} from '../store/authorizations.js';
import type { Db } from '../store/db.js';
import { membershipsOfUser } from '../store/organizations.js';
import { type Permission, roleCatalogue } from '../store/roles.js';
import type { ApiCaller } from './api-tokens.js';
import { registerCheckedApplication, removeApplication, updateCheckedApplication } from './applications.js';
import { switchPermission } from './catalogue.js';
import { type ApplicationAccess, applicationAccess } from './permissions-policy.js';
import { addGrantee } from './portal-views.js';
import type { applicationFields } from './validate.js';

/**
 * Applications, their roles and permissions through Keyrock's /v1 API. Who may do what is the
 * portal's rule (permissions-policy.ts): Provider manages, Provider or Purchaser reads and
 * assigns; an administrator may do everything. Anyone else gets Keyrock's 403 for an application
 * that exists, whatever they ask. The writes are the portal's own domain and store functions.
 */
const NOT_ALLOWED = 'User not allow to perform the action';

export type Need = 'read' | 'manage';

/** Keyrock's client ids are UUIDs; anything that cannot be a client id is simply not found. */
const CLIENT_ID = /^[0-9A-Za-z_-]{1,64}$/;

/**
 * The application a /v1 path names by its client id, if the caller may do `need` with it: one
 * GetItem on the client, then the role resolver's read (the application, its catalogue summary
 * and the caller's roles). Keyrock's own application `idm_admin_app` is never served (403).
 */
export async function v1Application(
  db: Db,
  caller: ApiCaller,
  clientId: string,
  need: Need,
): Promise<ApplicationAccess> {
  if (clientId === 'idm_admin_app') throw forbidden('Not allowed');
  const client = CLIENT_ID.test(clientId) ? await getClient(db, clientId) : undefined;
  if (!client) throw notFound('Application not found');
  let access: ApplicationAccess;
  try {
    access = await applicationAccess(db, caller.user.id, client.appId);
  } catch (error) {
    // The client item outlives its application only while a delete is under way.
    if (error instanceof AppError && error.kind === 'not_found') throw notFound('Application not found');
    throw error;
  }
  if (caller.user.admin === true) return { ...access, manage: true, authorize: true };
  if (need === 'manage' ? !access.manage : !access.authorize) throw forbidden(NOT_ALLOWED);
  return access;
}

/**
 * GET /v1/applications: the applications the caller holds a role in, directly or through an
 * organization (Keyrock's list, also for an administrator): the caller's authorizations and
 * memberships (one partition, two queries), each organization's applications (GSI1), then the
 * applications in one BatchGetItem.
 */
export async function applicationsOfCaller(db: Db, caller: ApiCaller): Promise<Application[]> {
  const [own, memberships] = await Promise.all([
    appIdsOfUser(db, caller.user.id),
    membershipsOfUser(db, caller.user.id),
  ]);
  const viaOrgs = await Promise.all(memberships.map((m) => appIdsOfOrganization(db, m.orgId)));
  return applicationsByIds(db, [...new Set([...own, ...viaOrgs.flat()])]);
}

export type CheckedApplication = ReturnType<typeof applicationFields>;

/** POST /v1/applications: the caller owns the new application and holds its Provider role. */
export function createApplicationFor(
  db: Db,
  caller: ApiCaller,
  fields: CheckedApplication,
): Promise<{ app: Application; roles: Role[]; clientSecret: string }> {
  const owner = { kind: 'user', userId: caller.user.id, actorId: caller.user.actorId } as const;
  return registerCheckedApplication(db, owner, fields);
}

/** PATCH /v1/applications/:id: the application's fields after the change, both items at once. */
export function changeApplication(
  db: Db,
  app: Application,
  fields: CheckedApplication,
): Promise<Application> {
  return updateCheckedApplication(db, app, fields);
}

export function deleteApplicationOf(db: Db, access: ApplicationAccess): Promise<void> {
  return removeApplication(db, access.app.id);
}

/**
 * A role a path names: `provider` and `purchaser` are the built-in ones (Keyrock's ids for its
 * internal roles), anything else a role of the application's own by its decimal id.
 */
export function roleByKeyrockId(access: ApplicationAccess, raw: string): Role {
  const role =
    raw === 'provider' || raw === 'purchaser'
      ? access.rules.roles.find((r) => r.builtIn === raw)
      : /^\d{1,15}$/.test(raw)
        ? access.rules.roles.find((r) => r.id === Number(raw) && !r.builtIn)
        : undefined;
  if (!role) throw notFound('Role not found');
  return role;
}

/** Keyrock refuses every change to its internal roles and permissions with a bare 403. */
export function refuseBuiltIn(builtIn: boolean): void {
  if (builtIn) throw forbidden('Not allowed');
}

/** An application's own permissions with their full fields (the catalogue range, pattern 9a). */
export async function permissionsOf(db: Db, appId: number): Promise<Permission[]> {
  return (await roleCatalogue(db, appId)).permissions;
}

/**
 * GET /v1/applications/:id/roles: every role for a Provider or an administrator (the built-in
 * ones too, as Keyrock lists its internal roles to holders of its permission 3); the
 * application's own roles for a Purchaser (Keyrock's permission 5). None is Keyrock's 404.
 */
export function visibleRoles(access: ApplicationAccess): Role[] {
  const roles = access.manage ? access.rules.roles : access.rules.roles.filter((r) => !r.builtIn);
  if (roles.length === 0) throw notFound('Roles not found');
  return roles;
}

/** An application's own permission by its Gatehouse id (the catalogue range read), or 404. */
export async function ownPermission(db: Db, appId: number, permissionId: number): Promise<Permission> {
  const found = (await permissionsOf(db, appId)).find((p) => p.id === permissionId);
  if (!found) throw notFound('permission not found');
  return found;
}

/**
 * Switches a permission of the application's own on (PUT) or off (DELETE) for a role of its own,
 * checked against the catalogue summary read for the access check. Built-in roles and Keyrock's
 * internal permissions cannot be assigned (403); switching off what is not on is Keyrock's 404.
 */
export async function assignPermission(
  db: Db,
  access: ApplicationAccess,
  role: Role,
  permission: { internal: string } | { id: number },
  on: boolean,
): Promise<number> {
  if ('id' in permission && !access.rules.permissions.some((p) => p.id === permission.id)) {
    throw notFound('permission not found');
  }
  // Gatehouse keeps Keyrock's internal permissions as rules of the built-in roles, not as
  // records, so an application's own role cannot be given one (Keyrock would store it).
  if (role.builtIn !== undefined || !('id' in permission)) throw forbidden('Not allowed');
  const permissionId = permission.id;
  if (!on && !access.rules.switches.get(role.id)?.has(permissionId)) throw notFound('Assignments not found');
  await switchPermission(db, access.app.id, role.id, permissionId, on);
  return permissionId;
}

/** GET /v1/applications/:id/roles/:role/permissions for a role of the application's own. */
export async function permissionsOfRole(
  db: Db,
  access: ApplicationAccess,
  role: Role,
): Promise<Permission[]> {
  const on = access.rules.switches.get(role.id) ?? new Set<number>();
  return on.size === 0 ? [] : (await permissionsOf(db, access.app.id)).filter((p) => on.has(p.id));
}

/**
 * The roles the caller may give and take (Keyrock's "changeable roles"): every role for a
 * Provider or an administrator (Keyrock's permissions 1 and 5), the application's own roles for
 * a Purchaser (permission 5 alone). Assignments of other roles are neither shown nor changed.
 */
function changeable(access: ApplicationAccess): Set<number> {
  return new Set(access.rules.roles.filter((r) => access.manage || !r.builtIn).map((r) => r.id));
}

export interface Assignment {
  grantee: Grantee;
  roleId: number;
  /** For an organization: whom in it the role is given to (Keyrock's `role_organization`). */
  heldBy: MemberRole[];
}

/**
 * GET /v1/applications/:id/users and …/organizations: who holds which changeable role (GSI1 for
 * the users, the application partition for the organizations: one Query each). None is 404.
 */
export async function assignments(
  db: Db,
  access: ApplicationAccess,
  kind: Grantee['kind'],
): Promise<Assignment[]> {
  const ok = changeable(access);
  const list = (await granteesOf(db, access.app.id))
    .filter((g) => g.kind === kind)
    .flatMap((g) =>
      g.roleIds
        .filter((r) => ok.has(r))
        .map((roleId) => {
          const only = g.only.get(roleId);
          return { grantee: { kind, id: g.id }, roleId, heldBy: only ? [only] : [...MEMBER_ROLES] };
        }),
    )
    .sort((a, b) => a.grantee.id - b.grantee.id || a.roleId - b.roleId);
  if (list.length === 0) throw notFound('Assignments not found');
  return list;
}

/**
 * The entries of one grantee's roles that the caller may see, by role id; none is Keyrock's 404
 * (GET …/users/:user/roles and …/organizations/:org/roles answer so for an empty list).
 */
function changeableHeld<T>(access: ApplicationAccess, held: T[], roleOf: (entry: T) => number): T[] {
  const ok = changeable(access);
  const seen = held.filter((e) => ok.has(roleOf(e))).sort((a, b) => roleOf(a) - roleOf(b));
  if (seen.length === 0) throw notFound('Assignments not found');
  return seen;
}

/** GET …/users/:user/roles: the changeable roles a user holds. */
export async function rolesOfUser(db: Db, access: ApplicationAccess, userId: number): Promise<number[]> {
  return changeableHeld(access, await rolesOf(db, access.app.id, { kind: 'user', id: userId }), (r) => r);
}

/** GET …/organizations/:org/roles: the changeable roles an organization holds, and for whom in it. */
export async function rolesOfOrganization(
  db: Db,
  access: ApplicationAccess,
  orgId: number,
): Promise<{ roleId: number; heldBy: MemberRole[] }[]> {
  return changeableHeld(access, await orgRoleGrants(db, access.app.id, orgId), (g) => g.roleId);
}

/**
 * PUT (or POST) and DELETE of …/organizations/:org/roles/:role/organization_roles/:holder:
 * Keyrock gives a role to an organization's members or to its owners, each on its own; a
 * member's roles are not an owner's (its /user and decisions answer so), and Gatehouse keeps
 * that (store/authorizations.ts `setOrgRoleHolder`). Taking a grant that is not there is 404.
 */
export async function setOrganizationRoleHolder(
  db: Db,
  access: ApplicationAccess,
  orgId: number,
  role: Role,
  holder: MemberRole,
  on: boolean,
): Promise<void> {
  if (!changeable(access).has(role.id)) throw forbidden(NOT_ALLOWED);
  const changed = await setOrgRoleHolder(db, access.app.id, orgId, role.id, holder, on);
  if (!on && !changed) throw notFound('Assignments not found');
}

/**
 * PUT (or POST) and DELETE of …/users/:user/roles/:role, through the portal's own authorization
 * writes (organizations: setOrganizationRoleHolder). A role the caller may not change is
 * Keyrock's 403; taking a role the user does not hold is its 404.
 */
export async function setUserRole(
  db: Db,
  access: ApplicationAccess,
  userId: number,
  role: Role,
  on: boolean,
): Promise<void> {
  if (!changeable(access).has(role.id)) throw forbidden(NOT_ALLOWED);
  const grantee: Grantee = { kind: 'user', id: userId };
  if (on) return addGrantee(db, access.app.id, grantee, role.id);
  if (!(await rolesOf(db, access.app.id, grantee)).includes(role.id)) throw notFound('Assignments not found');
  await unauthorize(db, access.app.id, grantee, role.id);
}

/** A role of the application by its Gatehouse id, from the catalogue read for the check. */
export function roleById(access: ApplicationAccess, roleId: number): Role {
  const role = access.rules.roles.find((r) => r.id === roleId);
  if (!role) throw notFound('Role not found');
  return role;
}
