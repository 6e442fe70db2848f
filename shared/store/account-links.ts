import { nowSeconds } from '../time.js';
import type { Db } from './db.js';
import { keys } from './keys.js';
import { getItem, isConditionalFailure, queryPartition, writtenIf } from './ops.js';

/**
 * E-mail verification and password reset links (keys.ts pattern 24). The mail holds a random
 * token; the table holds only its SHA-256 digest, the purpose, the user and the email the link
 * was sent to. A link is single-use: taking it marks it used in one conditional update, so of two
 * concurrent clicks exactly one wins. TTL deletes it lazily; `takeLink` checks the expiry itself.
 */
export type LinkPurpose = 'verify' | 'reset' | 'email';

export interface AccountLink {
  digest: string;
  purpose: LinkPurpose;
  userId: number;
  email: string;
  expiresAt: number;
}

export async function putLink(db: Db, link: AccountLink): Promise<void> {
  await db.doc.put({
    TableName: db.table,
    Item: { ...keys.accountLink(link.digest), type: 'accountLink', ...link },
    ConditionExpression: 'attribute_not_exists(PK)',
  });
}

export type TakeOutcome =
  | { ok: true; link: AccountLink }
  | { ok: false; reason: 'unknown' | 'used' | 'expired' };

/** Marks a link used if it exists, has this purpose, is unused and has not expired. */
export async function takeLink(db: Db, digest: string, purpose: LinkPurpose): Promise<TakeOutcome> {
  const now = nowSeconds();
  try {
    const out = await db.doc.update({
      TableName: db.table,
      Key: keys.accountLink(digest),
      UpdateExpression: 'SET usedAt = :now',
      ConditionExpression:
        'attribute_exists(PK) AND purpose = :p AND attribute_not_exists(usedAt) AND expiresAt > :now',
      ExpressionAttributeValues: { ':now': now, ':p': purpose },
      ReturnValues: 'ALL_NEW',
    });
    const item = out.Attributes ?? {};
    return {
      ok: true,
      link: {
        digest,
        purpose,
        userId: item.userId as number,
        email: item.email as string,
        expiresAt: Number(item.expiresAt),
      },
    };
  } catch (error) {
    if (!isConditionalFailure(error)) throw error;
    const item = await getItem(db, keys.accountLink(digest), true);
    if (!item || item.purpose !== purpose) return { ok: false, reason: 'unknown' };
    return { ok: false, reason: item.usedAt !== undefined ? 'used' : 'expired' };
  }
}

/** Marks a user's login verified (the login item carries the flag the sign-in reads). */
export async function markVerified(db: Db, email: string, userId: number): Promise<boolean> {
  return writtenIf(
    db.doc.update({
      TableName: db.table,
      Key: keys.login(email),
      UpdateExpression: 'SET emailVerified = :t',
      ConditionExpression: 'userId = :id',
      ExpressionAttributeValues: { ':t': true, ':id': userId },
    }),
  );
}

/** The grants of a user that held refresh tokens (keys.ts pattern 26), live ones only. */
export async function userGrantIds(db: Db, userId: number): Promise<string[]> {
  const items = await queryPartition(db, keys.userGrantsPartition(userId));
  const now = nowSeconds();
  return items.filter((i) => Number(i.expiresAt) > now).map((i) => i.grantId as string);
}
