import { nowSeconds } from '../time.js';
import type { Db } from './db.js';
import { keys } from './keys.js';
import { type Item, isConditionalFailure } from './ops.js';

/** Brute-force guard rule: 5 failed passwords within 15 minutes lock the account for 15 minutes. */
export const GUARD = { maxFailures: 5, windowSeconds: 15 * 60, lockSeconds: 15 * 60 } as const;

export interface GuardState {
  failures: number;
  windowStart: number;
  lockedUntil: number;
}

export function guardState(item: Item | undefined): GuardState | undefined {
  if (!item) return undefined;
  return {
    failures: Number(item.failures ?? 0),
    windowStart: Number(item.windowStart ?? 0),
    lockedUntil: Number(item.lockedUntil ?? 0),
  };
}

export function isLocked(state: GuardState | undefined, now = nowSeconds()): boolean {
  return !!state && state.lockedUntil > now;
}

/**
 * Counts a failed password for an email, whether or not an account has it (so a lockout reveals
 * nothing). The counter lives in one item; a window older than 15 minutes starts over.
 */
export async function recordFailure(db: Db, email: string): Promise<void> {
  const now = nowSeconds();
  const key = keys.guard(email);
  const expiresAt = now + GUARD.windowSeconds + GUARD.lockSeconds;
  let failures: number;
  try {
    const out = await db.doc.update({
      TableName: db.table,
      Key: key,
      UpdateExpression:
        'ADD failures :one SET windowStart = if_not_exists(windowStart, :now), expiresAt = :exp',
      ConditionExpression: 'attribute_not_exists(windowStart) OR windowStart > :cutoff',
      ExpressionAttributeValues: {
        ':one': 1,
        ':now': now,
        ':exp': expiresAt,
        ':cutoff': now - GUARD.windowSeconds,
      },
      ReturnValues: 'ALL_NEW',
    });
    failures = Number(out.Attributes?.failures ?? 1);
  } catch (error) {
    if (!isConditionalFailure(error)) throw error;
    // The window had passed: start a new one.
    await db.doc.put({
      TableName: db.table,
      Item: { ...key, type: 'guard', failures: 1, windowStart: now, expiresAt },
    });
    failures = 1;
  }
  if (failures >= GUARD.maxFailures) {
    await db.doc.update({
      TableName: db.table,
      Key: key,
      UpdateExpression: 'SET lockedUntil = :until, expiresAt = :exp',
      ExpressionAttributeValues: { ':until': now + GUARD.lockSeconds, ':exp': now + GUARD.lockSeconds },
    });
  }
}

/** A correct password clears the failures (only called when there were some). */
export async function clearFailures(db: Db, email: string): Promise<void> {
  await db.doc.delete({ TableName: db.table, Key: keys.guard(email) });
}

/**
 * A fixed-window counter of one action per subject (an email, a client address): true while the
 * count stays within `limit` per `windowSeconds` (keys.ts pattern 27). Used for mail-sending
 * actions, which must not become a way to flood someone's mailbox. One UpdateItem.
 */
export async function withinRate(
  db: Db,
  action: string,
  subject: string,
  limit: number,
  windowSeconds: number,
): Promise<boolean> {
  const now = nowSeconds();
  const key = keys.rate(action, subject);
  try {
    const out = await db.doc.update({
      TableName: db.table,
      Key: key,
      UpdateExpression:
        'ADD hits :one SET windowStart = if_not_exists(windowStart, :now), expiresAt = if_not_exists(expiresAt, :exp)',
      ConditionExpression: 'attribute_not_exists(windowStart) OR windowStart > :cutoff',
      ExpressionAttributeValues: {
        ':one': 1,
        ':now': now,
        ':exp': now + windowSeconds,
        ':cutoff': now - windowSeconds,
      },
      ReturnValues: 'ALL_NEW',
    });
    return Number(out.Attributes?.hits ?? 1) <= limit;
  } catch (error) {
    if (!isConditionalFailure(error)) throw error;
    await db.doc.put({
      TableName: db.table,
      Item: { ...key, type: 'rate', hits: 1, windowStart: now, expiresAt: now + windowSeconds },
    });
    return true;
  }
}
