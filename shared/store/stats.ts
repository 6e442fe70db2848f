import type { Db } from './db.js';
import { keys } from './keys.js';
import { getItem, nextIds, statsAdd } from './ops.js';

export interface Totals {
  users: number;
  organizations: number;
}

/** Keyrock's /v1 totals also count applications (the `applications` field of the same item). */
export interface IdmTotals extends Totals {
  applications: number;
}

/** The totals kept by atomic ADD in the same transactions that create users and organizations. */
export async function totals(db: Db): Promise<Totals> {
  const { users, organizations } = await idmTotals(db);
  return { users, organizations };
}

export async function idmTotals(db: Db): Promise<IdmTotals> {
  const item = await getItem(db, keys.stats());
  return {
    users: Number(item?.users ?? 0),
    organizations: Number(item?.organizations ?? 0),
    applications: Number(item?.applications ?? 0),
  };
}

/**
 * For a bulk writer (`idm import keyrock`): `count` consecutive user ids and actor ids in one
 * counter update, for users created with `NewUser.bulk`.
 */
export async function userIdBlock(db: Db, count: number): Promise<{ firstUser: number; firstActor: number }> {
  const last = await nextIds(db, { user: count, actor: count });
  return { firstUser: last.user - count + 1, firstActor: last.actor - count + 1 };
}

/** Adds a bulk writer's users to the totals in one update (they were created with `NewUser.bulk`). */
export async function addUsersToTotals(db: Db, count: number): Promise<void> {
  if (count === 0) return;
  await db.doc.update(statsAdd(db, 'users', count).Update);
}
