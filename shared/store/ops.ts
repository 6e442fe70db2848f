import { setTimeout as sleep } from 'node:timers/promises';
import type { Db } from './db.js';
import type { QueryInput, TransactItem } from './doc.js';
import { GSI1, type Key, keys } from './keys.js';

export type Item = Record<string, unknown>;

/** Why a transaction was cancelled, one entry per item, as DynamoDB reports it. */
export class TransactionFailed extends Error {
  constructor(readonly reasons: (string | undefined)[]) {
    super(`transaction cancelled: ${reasons.join(',')}`);
    this.name = 'TransactionFailed';
  }
  /** Whether the condition of the item at `index` failed. */
  failedAt(index: number): boolean {
    return this.reasons[index] === 'ConditionalCheckFailed';
  }
}

export function isConditionalFailure(error: unknown): boolean {
  return (error as { name?: string })?.name === 'ConditionalCheckFailedException';
}

/**
 * A conditional write's outcome: true when it was written, false when its condition failed (the
 * race it guards was lost, the item was not as expected); any other error is thrown.
 */
export async function writtenIf(write: Promise<unknown>): Promise<boolean> {
  try {
    await write;
    return true;
  } catch (error) {
    if (isConditionalFailure(error)) return false;
    throw error;
  }
}

/**
 * TransactWriteItems, all or nothing. Concurrent transactions on the same item (the totals
 * counter, say) are cancelled with TransactionConflict; those are retried with jittered backoff.
 * A failed condition is final and surfaces as TransactionFailed with the per-item reasons, which
 * repositories turn into domain errors.
 */
export async function transact(db: Db, items: TransactItem[], attempts = 8): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      await db.doc.transactWrite({ TransactItems: items });
      return;
    } catch (error) {
      const reasons = (error as { CancellationReasons?: { Code?: string }[] }).CancellationReasons;
      if ((error as { name?: string }).name !== 'TransactionCanceledException' || !reasons) throw error;
      const codes = reasons.map((r) => (r.Code === 'None' ? undefined : r.Code));
      const conflictOnly = codes.every((c) => c === undefined || c === 'TransactionConflict');
      if (conflictOnly && attempt < attempts) {
        await sleep(Math.random() * 20 * 2 ** attempt);
        continue;
      }
      throw new TransactionFailed(codes);
    }
  }
}

export async function getItem<T = Item>(db: Db, key: Key, consistent = false): Promise<T | undefined> {
  const out = await db.doc.get({ TableName: db.table, Key: key, ConsistentRead: consistent });
  return out.Item as T | undefined;
}

/**
 * BatchGetItem for any number of keys: chunks of 100 (the API's limit) sent in parallel, one
 * round trip, each retrying its unprocessed keys with backoff. `consistent` for strongly
 * consistent reads (a token revoked a moment ago, a role removed a moment ago).
 */
export async function batchGet(db: Db, keyList: Key[], consistent = false): Promise<Item[]> {
  const unique = [...new Map(keyList.map((k) => [`${k.PK}\u0000${k.SK}`, k])).values()];
  const chunks: Key[][] = [];
  for (let i = 0; i < unique.length; i += 100) chunks.push(unique.slice(i, i + 100));
  const found = await Promise.all(
    chunks.map(async (chunk) => {
      const items: Item[] = [];
      let pending = chunk;
      for (let attempt = 0; pending.length > 0; attempt++) {
        const out = await db.doc.batchGet({
          RequestItems: { [db.table]: { Keys: pending, ConsistentRead: consistent } },
        });
        items.push(...((out.Responses?.[db.table] ?? []) as Item[]));
        pending = (out.UnprocessedKeys?.[db.table]?.Keys ?? []) as Key[];
        if (pending.length > 0) await sleep(Math.min(1000, 25 * 2 ** attempt));
      }
      return items;
    }),
  );
  return found.flat();
}

/** The item with this key among those a batch read returned. */
export function findItem(items: Item[], key: Key): Item | undefined {
  return items.find((i) => i.PK === key.PK && i.SK === key.SK);
}

/** Query every page of one key condition. */
export async function queryAll(db: Db, input: Omit<QueryInput, 'TableName'>): Promise<Item[]> {
  const items: Item[] = [];
  let start: Record<string, unknown> | undefined;
  do {
    const out = await db.doc.query({ ...input, TableName: db.table, ExclusiveStartKey: start });
    items.push(...((out.Items ?? []) as Item[]));
    start = out.LastEvaluatedKey;
  } while (start);
  return items;
}

/** All items of one partition, optionally only those whose sort key starts with `prefix`. */
export function queryPartition(db: Db, pk: string, prefix?: string, consistent = true): Promise<Item[]> {
  return queryAll(db, {
    KeyConditionExpression: prefix ? 'PK = :pk AND begins_with(SK, :prefix)' : 'PK = :pk',
    ExpressionAttributeValues: prefix ? { ':pk': pk, ':prefix': prefix } : { ':pk': pk },
    ConsistentRead: consistent,
  });
}

/** Items of one partition whose sort key is `from` or after it (a range of the partition). */
export function queryPartitionFrom(db: Db, pk: string, from: string, consistent = true): Promise<Item[]> {
  return queryAll(db, {
    KeyConditionExpression: 'PK = :pk AND SK >= :from',
    ExpressionAttributeValues: { ':pk': pk, ':from': from },
    ConsistentRead: consistent,
  });
}

/** Items of one GSI1 partition (eventually consistent, as every GSI read is). */
export function queryGsi1(db: Db, gsi1pk: string, prefix?: string): Promise<Item[]> {
  return queryAll(db, {
    IndexName: GSI1,
    KeyConditionExpression: prefix ? 'GSI1PK = :pk AND begins_with(GSI1SK, :prefix)' : 'GSI1PK = :pk',
    ExpressionAttributeValues: prefix ? { ':pk': gsi1pk, ':prefix': prefix } : { ':pk': gsi1pk },
  });
}

export type IdKind = 'user' | 'org' | 'actor' | 'app' | 'role' | 'permission';

/**
 * Draws fresh integer ids from the counters item with one atomic ADD per kind, in one round trip.
 * Ids are never reused; a failed creation leaves a gap, which is harmless.
 */
export async function nextIds<K extends IdKind>(
  db: Db,
  kinds: Partial<Record<K, number>>,
): Promise<Record<K, number>> {
  const entries = Object.entries(kinds) as [K, number][];
  const names: Record<string, string> = {};
  const values: Record<string, number> = {};
  const adds = entries.map(([kind, count], i) => {
    names[`#k${i}`] = kind;
    values[`:v${i}`] = count;
    return `#k${i} :v${i}`;
  });
  const out = await db.doc.update({
    TableName: db.table,
    Key: keys.counters(),
    UpdateExpression: `ADD ${adds.join(', ')}`,
    ExpressionAttributeNames: names,
    ExpressionAttributeValues: values,
    ReturnValues: 'UPDATED_NEW',
  });
  const result = {} as Record<K, number>;
  for (const [kind] of entries) result[kind] = Number(out.Attributes?.[kind]);
  return result;
}

/** A transaction item that adds to the SCIM totals, written with the record it counts. */
export function statsAdd(db: Db, field: 'users' | 'organizations', delta: number) {
  return {
    Update: {
      TableName: db.table,
      Key: keys.stats(),
      UpdateExpression: 'ADD #f :d',
      ExpressionAttributeNames: { '#f': field },
      ExpressionAttributeValues: { ':d': delta },
    },
  };
}
