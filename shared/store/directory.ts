import type { Db } from './db.js';
import { keys } from './keys.js';
import { batchGet, getItem, TransactionFailed, transact } from './ops.js';

/**
 * Builds the user directory (keys.ts patterns 32, 33) and the administrators' set (34) for users
 * written before they existed (`npx idm migrate`), without stopping the service: users are found
 * by id (1 … the id counter), never by a Scan. A profile that already carries the index keys was
 * written by this version and is left alone; one changed meanwhile (its email moved) is skipped,
 * since the change itself wrote its entries.
 */
export interface DirectoryReport {
  /** Profiles read. */
  users: number;
  /** Profiles that lacked their directory entries and got them. */
  usersIndexed: number;
}

export async function rebuildDirectory(db: Db): Promise<DirectoryReport> {
  const report: DirectoryReport = { users: 0, usersIndexed: 0 };
  const last = Number((await getItem(db, keys.counters(), true))?.user ?? 0);
  const admins: number[] = [];
  for (let from = 1; from <= last; from += 100) {
    const ids = Array.from({ length: Math.min(100, last - from + 1) }, (_, i) => from + i);
    const profiles = await batchGet(db, ids.map(keys.user), true);
    for (const p of profiles) {
      report.users++;
      if (p.admin === true) admins.push(p.id as number);
      if (p.GSI1PK !== undefined) continue;
      const email = p.email as string;
      try {
        await transact(db, [
          {
            Update: {
              TableName: db.table,
              Key: keys.user(p.id as number),
              UpdateExpression: 'SET GSI1PK = :pk, GSI1SK = :sk',
              ConditionExpression: 'email = :e AND attribute_not_exists(GSI1PK)',
              ExpressionAttributeValues: { ...gsi(keys.userEmailGsi(email)), ':e': email },
            },
          },
          {
            Put: {
              TableName: db.table,
              Item: {
                ...keys.userNameEntry(p.id as number),
                ...keys.userNameGsi(p.displayName as string, p.id as number),
                type: 'userName',
                userId: p.id,
              },
            },
          },
        ]);
        report.usersIndexed++;
      } catch (error) {
        if (!(error instanceof TransactionFailed)) throw error;
      }
    }
  }
  if (admins.length > 0) {
    // Adding to a set is idempotent: ids already there stay once.
    await db.doc.update({
      TableName: db.table,
      Key: keys.admins(),
      UpdateExpression: 'ADD ids :ids',
      ExpressionAttributeValues: { ':ids': new Set(admins) },
    });
  }
  return report;
}

const gsi = (k: { GSI1PK: string; GSI1SK: string }) => ({ ':pk': k.GSI1PK, ':sk': k.GSI1SK });
