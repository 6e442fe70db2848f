import type { BuiltInRole } from '../model.js';
import { type UserInApplication, userInApplication } from '../store/access.js';
import type { Application, Role } from '../store/applications.js';
import type { Db } from '../store/db.js';
import type { Membership } from '../store/organizations.js';
import type { PermissionRule, RoleRules } from '../store/summaries.js';
import type { User } from '../store/users.js';

/**
 * The one role resolver: which roles a user holds in an application, directly and through each
 * organization they belong to. GET /user, its Permit/Deny decisions, GET /users/:id and the
 * portal's permission rules all ask it, so they can never disagree.
 */
export interface ResolvedRoles {
  user: User;
  /** Present when asked for with `withApplication` and the application exists. */
  application: Application | undefined;
  /** The application's roles, permission rules and switches. */
  rules: RoleRules;
  /** Roles held directly, by id. */
  direct: Role[];
  /** The user's organizations (by id), each with the roles it holds in the application. */
  memberships: { membership: Membership; roles: Role[] }[];
}

/** Undefined when the user does not exist. */
export async function resolveRoles(
  db: Db,
  userId: number,
  appId: number,
  options: { withApplication?: boolean } = {},
): Promise<ResolvedRoles | undefined> {
  return resolved(await userInApplication(db, userId, appId, options));
}

/** Resolves what the store read (also when the caller read it with a token). */
export function resolved(found: UserInApplication): ResolvedRoles | undefined {
  if (!found.user) return undefined;
  const byId = new Map(found.rules.roles.map((r) => [r.id, r]));
  // A role id without a role (deleted meanwhile) is no role at all.
  const rolesOf = (ids: number[]) =>
    [...new Set(ids)]
      .map((id) => byId.get(id))
      .filter((r): r is Role => r !== undefined)
      .sort((a, b) => a.id - b.id);
  return {
    user: found.user,
    application: found.application,
    rules: found.rules,
    direct: rolesOf(found.directRoleIds),
    memberships: found.memberships.map((m) => ({ membership: m.membership, roles: rolesOf(m.roleIds) })),
  };
}

/** Every role the user holds, directly or through an organization. */
export function heldRoles(resolved: ResolvedRoles): Role[] {
  return [...resolved.direct, ...resolved.memberships.flatMap((m) => m.roles)];
}

export function holdsAnyRole(resolved: ResolvedRoles): boolean {
  return heldRoles(resolved).length > 0;
}

/** The built-in roles (Provider, Purchaser) among those held: what the portal's rules ask. */
export function builtInsHeld(resolved: ResolvedRoles): Set<BuiltInRole> {
  const out = new Set<BuiltInRole>();
  for (const role of heldRoles(resolved)) if (role.builtIn) out.add(role.builtIn);
  return out;
}

export type Decision = 'Permit' | 'Deny';

/**
 * Longest resource a pattern is run against. Stored patterns were checked to be at most
 * polynomial (shared/keyrock/regex.ts: no nested repeats, at most two unbounded ones), so with
 * this bound a decision stays within milliseconds; a longer resource matches no pattern.
 */
const MAX_PATTERN_INPUT = 2048;

/**
 * A permission's resource against the requested one: equal, or for a pattern (Keyrock's
 * `is_regex`) a case-insensitive search, as Keyrock's `new RegExp(resource, 'i').test(…)`.
 */
function matches(p: PermissionRule, resource: string): boolean {
  if (!p.isRegex) return p.path === resource;
  if (resource.length > MAX_PATTERN_INPUT) return false;
  try {
    return new RegExp(p.path, 'i').test(resource);
  } catch {
    return false;
  }
}

/**
 * Keyrock's PEP-proxy decision: Permit when any role the user holds in the application, directly
 * or through an organization, has a switched-on permission with exactly this verb and this path
 * (or a pattern matching it) and, when the permission asks for one, this service header.
 * Anything else, including an unknown verb, is Deny.
 */
export function decide(
  resolved: ResolvedRoles,
  action: string,
  resource: string,
  serviceHeader?: string | undefined,
): Decision {
  const verb = action.toUpperCase();
  const matching = new Set(
    resolved.rules.permissions
      .filter((p) => p.verb === verb && matches(p, resource))
      // Keyrock: a permission that uses the service header applies only when the PEP proxy
      // sends that exact value (`authorization_service_header`).
      .filter((p) => p.requiredServiceHeader === undefined || p.requiredServiceHeader === serviceHeader)
      .map((p) => p.id),
  );
  if (matching.size === 0) return 'Deny';
  for (const role of heldRoles(resolved)) {
    const on = resolved.rules.switches.get(role.id);
    if (on && [...on].some((p) => matching.has(p))) return 'Permit';
  }
  return 'Deny';
}
