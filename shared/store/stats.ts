import type { Db } from './db.js';
import { keys } from './keys.js';
import { getItem } from './ops.js';

export interface Totals {
  users: number;
  organizations: number;
}

/** The totals kept by atomic ADD in the same transactions that create users and organizations. */
export async function totals(db: Db): Promise<Totals> {
  const item = await getItem(db, keys.stats());
  return { users: Number(item?.users ?? 0), organizations: Number(item?.organizations ?? 0) };
}
