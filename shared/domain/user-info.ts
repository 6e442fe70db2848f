import type { Role } from '../store/applications.js';
import { idFrom, keys } from '../store/keys.js';
import type { Item } from '../store/ops.js';
import { type Membership, toMembership } from '../store/organizations.js';
import { catalogueFrom, type RoleCatalogue } from '../store/roles.js';
import { toUser, type User } from '../store/users.js';

/**
 * What the Keyrock lookups say about a user in one application, computed from two partitions
 * read in parallel: USER#<uid> (profile, memberships with organization names, direct
 * authorizations) and APP#<appId> (roles, permissions, switches, organization authorizations).
 */
export interface UserInApp {
  user: User;
  /** Roles the user holds directly in the application. */
  direct: Role[];
  memberships: { membership: Membership; roles: Role[] }[];
  catalogue: RoleCatalogue;
}

export function userInApp(userItems: Item[], appItems: Item[], appId: number): UserInApp | undefined {
  const profile = userItems.find((i) => i.SK === keys.user(0).SK);
  if (!profile) return undefined;
  const catalogue = catalogueFrom(appItems);
  const roleById = new Map(catalogue.roles.map((r) => [r.id, r]));
  const rolesFrom = (ids: number[]) =>
    [...new Set(ids)]
      .map((id) => roleById.get(id))
      .filter((r): r is Role => r !== undefined)
      .sort((a, b) => a.id - b.id);
  const directPrefix = `${keys.userAuthorizationPrefix}${appId}#`;
  const direct = rolesFrom(
    userItems.filter((i) => (i.SK as string).startsWith(directPrefix)).map((i) => i.roleId as number),
  );
  const orgRoleIds = new Map<number, number[]>();
  for (const i of appItems) {
    const sk = i.SK as string;
    if (!sk.startsWith(keys.orgAuthorizationPrefix)) continue;
    const orgId = idFrom(sk, 1);
    orgRoleIds.set(orgId, [...(orgRoleIds.get(orgId) ?? []), idFrom(sk, 2)]);
  }
  const memberships = userItems
    .filter((i) => (i.SK as string).startsWith(keys.membershipPrefix))
    .map(toMembership)
    .sort((a, b) => a.orgId - b.orgId)
    .map((membership) => ({ membership, roles: rolesFrom(orgRoleIds.get(membership.orgId) ?? []) }));
  return { user: toUser(profile), direct, memberships, catalogue };
}

/** Whether the user holds any role in the application, directly or through an organization. */
export function holdsAnyRole(info: UserInApp): boolean {
  return info.direct.length > 0 || info.memberships.some((m) => m.roles.length > 0);
}

const role = (r: Role) => ({ id: r.id, name: r.name });

/** GET /user's body (Keyrock shape: organizations carry `name`, no actorId, no nickName). */
export function userInfoBody(info: UserInApp) {
  return {
    id: info.user.id,
    displayName: info.user.displayName,
    email: info.user.email,
    roles: info.direct.map(role),
    organizations: info.memberships.map((m) => ({
      id: m.membership.orgId,
      name: m.membership.orgName,
      roles: m.roles.map(role),
    })),
  };
}

/** GET /users/:id's body (Keyrock shape: with actorId and nickName; organizations carry displayName). */
export function userRecordBody(info: UserInApp) {
  return {
    id: info.user.id,
    actorId: info.user.actorId,
    nickName: info.user.nickName,
    displayName: info.user.displayName,
    email: info.user.email,
    roles: info.direct.map(role),
    organizations: info.memberships.map((m) => ({
      id: m.membership.orgId,
      actorId: m.membership.orgActorId,
      displayName: m.membership.orgName,
      roles: m.roles.map(role),
    })),
  };
}
