import type { Db } from './db.js';
import { keys } from './keys.js';
import { getItem } from './ops.js';

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
