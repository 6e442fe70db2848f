import { type Application, toApplication } from './applications.js';
import type { Db } from './db.js';
import { keys } from './keys.js';
import { getItem, type Item, queryPartition, queryPartitionFrom } from './ops.js';
import { type Membership, toMembership } from './organizations.js';
import { catalogueFrom, type RoleCatalogue } from './roles.js';
import { toUser, type User } from './users.js';

/**
 * What Gatehouse knows about a user in one application: the question behind GET /user, its
 * decisions, GET /users/:id and the portal's permission rules. Role ids only; which roles they
 * are, and what they allow, is the domain's role resolver (shared/domain/roles.ts).
 */
export interface UserInApplication {
  /** Undefined when no such user exists. */
  user: User | undefined;
  /** The application's metadata, when asked for (undefined also when it does not exist). */
  application: Application | undefined;
  catalogue: RoleCatalogue;
  /** Role ids the user holds directly in the application. */
  directRoleIds: number[];
  /** The user's organizations, each with the role ids it holds in the application. */
  memberships: { membership: Membership; roleIds: number[] }[];
}

/**
 * Reads it in at most two rounds, with work that grows with the answer, never with the
 * application's size:
 * 1. the user's partition (profile, memberships, direct authorizations) ‖ the application's role
 *    catalogue (SK >= PERM#: permissions, roles, switches, not the organization authorizations,
 *    which grow with every organization in the application) ‖ its metadata when asked for;
 * 2. only for a member of organizations: the roles each of them holds in the application, one
 *    small Query (ORGAUTHZ#<orgId>#) per membership, in parallel.
 */
export async function userInApplication(
  db: Db,
  userId: number,
  appId: number,
  options: { withApplication?: boolean } = {},
): Promise<UserInApplication> {
  const app = keys.appPartition(appId);
  const [userItems, catalogueItems, appItem] = await Promise.all([
    queryPartition(db, keys.userPartition(userId)),
    queryPartitionFrom(db, app, keys.appCatalogueStart),
    options.withApplication ? getItem(db, keys.application(appId), true) : undefined,
  ]);
  const profile = userItems.find((i) => i.SK === keys.user(userId).SK);
  const direct = `${keys.userAuthorizationPrefix}${appId}#`;
  const memberships = profile
    ? userItems
        .filter((i) => (i.SK as string).startsWith(keys.membershipPrefix))
        .map(toMembership)
        .sort((a, b) => a.orgId - b.orgId)
    : [];
  const orgRoles = await Promise.all(
    memberships.map((m) => queryPartition(db, app, `${keys.orgAuthorizationPrefix}${m.orgId}#`)),
  );
  return {
    user: profile ? toUser(profile) : undefined,
    application: appItem ? toApplication(appItem) : undefined,
    catalogue: catalogueFrom(catalogueItems),
    directRoleIds: userItems.filter((i) => (i.SK as string).startsWith(direct)).map(roleIdOf),
    memberships: memberships.map((membership, i) => ({ membership, roleIds: orgRoles[i]!.map(roleIdOf) })),
  };
}

const roleIdOf = (item: Item) => item.roleId as number;
