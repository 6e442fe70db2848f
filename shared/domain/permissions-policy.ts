import { forbidden, notFound } from '../errors.js';
import { type Application, type BuiltInRole, toApplication } from '../store/applications.js';
import type { Db } from '../store/db.js';
import { idFrom, keys } from '../store/keys.js';
import type { Item } from '../store/ops.js';
import { queryPartition } from '../store/ops.js';
import { getMembership, type Membership, toMembership } from '../store/organizations.js';

/**
 * Who may do what in the portal. The API enforces these rules (403); the portal only uses the
 * same answers to hide what a person cannot do.
 *
 * - Provider (held directly, or through an organization one belongs to) may edit or delete an
 *   application, manage its roles and permissions, reset its secret and change its logo.
 * - Provider and Purchaser may authorize users and organizations.
 * - Only owners manage an organization's members; only members may act as one or see it.
 */
export interface ApplicationAccess {
  app: Application;
  /** Every item of the application's partition (roles, permissions, switches, org authorizations). */
  partition: Item[];
  memberships: Membership[];
  builtIns: Set<BuiltInRole>;
  /** Provider: edit, delete, roles and permissions, secret, logo. */
  manage: boolean;
  /** Provider or Purchaser: authorize users and organizations. */
  authorize: boolean;
}

/**
 * Reads the application's partition and the user's partition in parallel (one round trip) and
 * works out which built-in roles the user holds, directly or through their organizations.
 */
export async function applicationAccess(db: Db, userId: number, appId: number): Promise<ApplicationAccess> {
  const [partition, userItems] = await Promise.all([
    queryPartition(db, keys.appPartition(appId)),
    queryPartition(db, keys.userPartition(userId)),
  ]);
  const meta = partition.find((i) => i.SK === keys.application(appId).SK);
  if (!meta) throw notFound(`Application ${appId} does not exist.`);
  const memberships = userItems
    .filter((i) => (i.SK as string).startsWith(keys.membershipPrefix))
    .map(toMembership);
  const orgIds = new Set(memberships.map((m) => m.orgId));
  const heldRoleIds = new Set<number>();
  const direct = `${keys.userAuthorizationPrefix}${appId}#`;
  for (const item of userItems) {
    const sk = item.SK as string;
    if (sk.startsWith(direct)) heldRoleIds.add(item.roleId as number);
  }
  for (const item of partition) {
    const sk = item.SK as string;
    if (sk.startsWith(keys.orgAuthorizationPrefix) && orgIds.has(idFrom(sk, 1)))
      heldRoleIds.add(item.roleId as number);
  }
  const builtIns = new Set<BuiltInRole>();
  for (const item of partition) {
    const sk = item.SK as string;
    if (sk.startsWith(keys.rolePrefix) && item.builtIn && heldRoleIds.has(item.id as number))
      builtIns.add(item.builtIn as BuiltInRole);
  }
  return {
    app: toApplication(meta),
    partition,
    memberships,
    builtIns,
    manage: builtIns.has('provider'),
    authorize: builtIns.has('provider') || builtIns.has('purchaser'),
  };
}

export async function requireProvider(db: Db, userId: number, appId: number): Promise<ApplicationAccess> {
  const access = await applicationAccess(db, userId, appId);
  if (!access.manage) {
    throw forbidden('Only users holding the Provider role in this application may do this.');
  }
  return access;
}

export async function requireAuthorizer(db: Db, userId: number, appId: number): Promise<ApplicationAccess> {
  const access = await applicationAccess(db, userId, appId);
  if (!access.authorize) {
    throw forbidden('Only users holding the Provider or Purchaser role in this application may do this.');
  }
  return access;
}

export async function requireMember(db: Db, orgId: number, userId: number): Promise<Membership> {
  const membership = await getMembership(db, orgId, userId);
  if (!membership) throw forbidden('Only members of this organization may do this.');
  return membership;
}

export async function requireOwner(db: Db, orgId: number, userId: number): Promise<Membership> {
  const membership = await requireMember(db, orgId, userId);
  if (membership.role !== 'owner')
    throw forbidden('Only owners of this organization may manage its members.');
  return membership;
}
