import type { BuiltInRole, HttpVerb, MemberRole } from '../model.js';
import type { Db } from './db.js';
import { keys } from './keys.js';
import type { Item } from './ops.js';

/**
 * Two items kept with every write they summarise, in the same transaction, so that GET /user and
 * its decisions read one item where they would otherwise read a range or one item per membership
 * (docs/data-model.md, patterns 18 and 19):
 *
 * - `APP#<id>/CATALOGUE`: the role catalogue as the lookups need it. Top-level attributes
 *   `r<roleId>` {name, builtIn}, `p<permissionId>` {verb, path, `r: true` for a pattern},
 *   `s<roleId>` the number set of permission ids switched on. Top-level names keep every update
 *   valid on an item that does not exist yet; `v` marks it complete (written at the
 *   application's creation, or by `npx idm migrate` for applications created before it
 *   existed). Readers trust only a complete one.
 * - `APP#<id>/ORGROLES#<orgId>`: `roleIds`, the number set of roles the organization holds.
 */
export const SUMMARY_VERSION = 1;

export interface Role {
  id: number;
  appId: number;
  name: string;
  builtIn?: BuiltInRole | undefined;
}

/** What a permission decision needs of a permission. */
export interface PermissionRule {
  id: number;
  verb: HttpVerb;
  path: string;
  /** `path` is a pattern (Keyrock's `is_regex`), checked when it was stored. */
  isRegex?: boolean | undefined;
  /**
   * The service header a PEP proxy must send for the permission to apply (Keyrock's
   * `authorization_service_header` while `use_authorization_service_header` is on).
   */
  requiredServiceHeader?: string | undefined;
}

/** What a stored permission says about the service header (shared/store/roles.ts). */
interface HeaderFields {
  serviceHeader?: string | undefined;
  useServiceHeader?: boolean | undefined;
}

/**
 * A permission's entry in the summary: `r: true` only for a pattern and `h` only for a required
 * service header, so entries written before either existed stay valid.
 */
export const permissionValue = (p: PermissionRule & HeaderFields) => ({
  verb: p.verb,
  path: p.path,
  ...(p.isRegex ? { r: true } : {}),
  ...(p.useServiceHeader && p.serviceHeader ? { h: p.serviceHeader } : {}),
});

/** The catalogue as decisions and role names need it: roles, permission rules and switches. */
export interface RoleRules {
  roles: Role[];
  permissions: PermissionRule[];
  /** roleId → ids of the permissions switched on for it */
  switches: Map<number, Set<number>>;
}

interface Clauses {
  set?: string;
  remove?: string;
  add?: string;
  delete?: string;
}

/**
 * One transaction item updating the catalogue summary. Every change also counts `ver` up, so
 * `npx idm migrate` can rebuild a summary without losing a write that lands meanwhile.
 */
function update(db: Db, appId: number, clauses: Clauses, names: Record<string, string>, values?: object) {
  const expression = [
    clauses.set ? `SET ${clauses.set}` : '',
    clauses.remove ? `REMOVE ${clauses.remove}` : '',
    `ADD #ver :one${clauses.add ? `, ${clauses.add}` : ''}`,
    clauses.delete ? `DELETE ${clauses.delete}` : '',
  ].filter(Boolean);
  return {
    Update: {
      TableName: db.table,
      Key: keys.catalogue(appId),
      UpdateExpression: expression.join(' '),
      ExpressionAttributeNames: { ...names, '#ver': 'ver' },
      ExpressionAttributeValues: { ...values, ':one': 1 },
    },
  };
}

const roleValue = (role: Role) => ({ name: role.name, ...(role.builtIn ? { builtIn: role.builtIn } : {}) });

/** The complete summary of a new application's catalogue (its two built-in roles). */
export function catalogueItem(appId: number, roles: Role[]): Item {
  return {
    ...keys.catalogue(appId),
    type: 'catalogue',
    appId,
    v: SUMMARY_VERSION,
    ver: 0,
    ...Object.fromEntries(roles.map((r) => [`r${r.id}`, roleValue(r)])),
  };
}

/** Transaction items that keep the catalogue summary in step with each catalogue write. */
export const catalogueSummary = {
  putRole: (db: Db, role: Role) =>
    update(db, role.appId, { set: '#r = :r' }, { '#r': `r${role.id}` }, { ':r': roleValue(role) }),
  removeRole: (db: Db, appId: number, roleId: number) =>
    update(db, appId, { remove: '#r, #s' }, { '#r': `r${roleId}`, '#s': `s${roleId}` }),
  putPermission: (db: Db, appId: number, p: PermissionRule & HeaderFields) =>
    update(db, appId, { set: '#p = :p' }, { '#p': `p${p.id}` }, { ':p': permissionValue(p) }),
  removePermission: (db: Db, appId: number, permissionId: number) =>
    update(db, appId, { remove: '#p' }, { '#p': `p${permissionId}` }),
  switchPermission(db: Db, appId: number, roleId: number, permissionId: number, on: boolean) {
    // Deleting the last element of a set drops the attribute, which reads back as no switches.
    const clause = on ? { add: '#s :p' } : { delete: '#s :p' };
    return update(db, appId, clause, { '#s': `s${roleId}` }, { ':p': new Set([permissionId]) });
  },
};

/** The rules of a complete summary item; undefined when there is none, or it is not complete yet. */
export function rulesFromSummary(item: Item | undefined, appId: number): RoleRules | undefined {
  if (item?.v !== SUMMARY_VERSION) return undefined;
  const roles: Role[] = [];
  const permissions: PermissionRule[] = [];
  const switches = new Map<number, Set<number>>();
  for (const [name, value] of Object.entries(item)) {
    const id = Number(name.slice(1));
    if (!/^[rps]\d+$/.test(name)) continue;
    if (name[0] === 'r') {
      const v = value as { name: string; builtIn?: Role['builtIn'] };
      roles.push({ id, appId, name: v.name, builtIn: v.builtIn });
    } else if (name[0] === 'p') {
      const v = value as { verb: HttpVerb; path: string; r?: boolean; h?: string };
      permissions.push({
        id,
        verb: v.verb,
        path: v.path,
        ...(v.r === true ? { isRegex: true } : {}),
        ...(typeof v.h === 'string' ? { requiredServiceHeader: v.h } : {}),
      });
    } else switches.set(id, new Set([...(value as Set<number>)].map(Number)));
  }
  roles.sort((a, b) => a.id - b.id);
  permissions.sort((a, b) => a.id - b.id);
  return { roles, permissions, switches };
}

/**
 * Transaction items that keep an organization's role set in an application (pattern 19). Each
 * counts `ver` up, so a rebuild (`rebuildSummaries`) notices a change made while it worked.
 */
function orgRolesUpdate(db: Db, appId: number, orgId: number, clause: string, roleIds?: number[]) {
  return {
    Update: {
      TableName: db.table,
      Key: keys.orgRoles(appId, orgId),
      UpdateExpression: `SET #t = :t, appId = :a, orgId = :o${clause}`,
      ExpressionAttributeNames: { '#t': 'type', '#ver': 'ver' },
      ExpressionAttributeValues: {
        ':t': 'orgRoles',
        ':a': appId,
        ':o': orgId,
        ':one': 1,
        ...(roleIds && roleIds.length > 0 ? { ':r': new Set(roleIds) } : {}),
      },
    },
  };
}

/**
 * Where an ORGROLES item keeps a role, by whom in the organization it is given to: Gatehouse's
 * grant to the whole organization (`roleIds`), or Keyrock's grant to its members alone or its
 * owners alone (`role_organization` = member / owner: `memberRoleIds`, `ownerRoleIds`).
 */
const ORG_ROLE_SETS = { all: 'roleIds', member: 'memberRoleIds', owner: 'ownerRoleIds' } as const;
type OrgRoleSet = keyof typeof ORG_ROLE_SETS;

/** Whom in an organization a role is given to: both its members and owners, one of them, or none. */
export const scopeSet = (heldBy: readonly MemberRole[]): OrgRoleSet | undefined =>
  heldBy.length === 2 ? 'all' : heldBy[0];

/** Keeps the role in exactly one set (or none) in one update expression. */
function placeRole(db: Db, appId: number, orgId: number, roleId: number, target: OrgRoleSet | undefined) {
  const others = (Object.keys(ORG_ROLE_SETS) as OrgRoleSet[])
    .filter((k) => k !== target)
    .map((k) => `${ORG_ROLE_SETS[k]} :r`)
    .join(', ');
  const add = target ? `${ORG_ROLE_SETS[target]} :r, #ver :one` : '#ver :one';
  return orgRolesUpdate(db, appId, orgId, ` ADD ${add} DELETE ${others}`, [roleId]);
}

export const orgRolesSummary = {
  /** The role for the whole organization (the portal, and /v1 once both members and owners hold it). */
  add: (db: Db, appId: number, orgId: number, roleId: number) => placeRole(db, appId, orgId, roleId, 'all'),
  /** The role for whom `heldBy` names: members, owners, both or (empty) nobody. */
  place: (db: Db, appId: number, orgId: number, roleId: number, heldBy: readonly MemberRole[]) =>
    placeRole(db, appId, orgId, roleId, scopeSet(heldBy)),
  remove: (db: Db, appId: number, orgId: number, roleId: number) =>
    placeRole(db, appId, orgId, roleId, undefined),
  /** Exactly these roles, for the whole organization (the portal's "change role", a new application's owner). */
  replace: (db: Db, appId: number, orgId: number, roleIds: number[]) =>
    roleIds.length > 0
      ? orgRolesUpdate(
          db,
          appId,
          orgId,
          ', roleIds = :r REMOVE memberRoleIds, ownerRoleIds ADD #ver :one',
          roleIds,
        )
      : orgRolesUpdate(db, appId, orgId, ' REMOVE roleIds, memberRoleIds, ownerRoleIds ADD #ver :one'),
};

/**
 * The role ids an ORGROLES item gives a member or an owner of the organization (none when the
 * item or its sets are absent): the whole organization's, and those given to its members alone
 * or its owners alone, as Keyrock's /user answers for the user's role in the organization.
 */
export function roleIdsFrom(item: Item | undefined, as: MemberRole): number[] {
  const sets = orgRoleSets(item);
  return [...sets.all, ...(as === 'owner' ? sets.owner : sets.member)];
}

/** The three sets of an ORGROLES item, as numbers. */
export function orgRoleSets(item: Item | undefined): Record<OrgRoleSet, number[]> {
  const read = (set: OrgRoleSet) =>
    [...((item?.[ORG_ROLE_SETS[set]] as Set<number> | undefined) ?? [])].map(Number);
  return { all: read('all'), member: read('member'), owner: read('owner') };
}
