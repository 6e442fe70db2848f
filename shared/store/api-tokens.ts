import type { Db } from './db.js';
import { keys } from './keys.js';
import { findItem, getItem } from './ops.js';
import { getConsistent } from './tokens.js';
import { toUser, type User } from './users.js';

/**
 * Keyrock API tokens (`X-Auth-Token`, POST /v1/auth/tokens). Like OAuth tokens, only the SHA-256
 * digest of the value is stored (the key); `expiresAt` is the table's TTL attribute, and since
 * TTL deletes lazily every read checks it too (domain/api-tokens.ts).
 */
export interface ApiTokenRecord {
  digest: string;
  userId: number;
  /** Epoch seconds. */
  expiresAt: number;
  /** How the token was obtained (Keyrock's `methods`: password, token). */
  methods: string[];
}

export async function putApiToken(db: Db, token: ApiTokenRecord): Promise<void> {
  await db.doc.put({
    TableName: db.table,
    Item: { ...keys.apiToken(token.digest), type: 'api-token', ...token },
    ConditionExpression: 'attribute_not_exists(PK)',
  });
}

/**
 * A token and the user its value names, in one strongly consistent BatchGetItem (pattern 20): a
 * token deleted a moment ago, or a user deleted or demoted a moment ago, is seen as it is now.
 */
export async function apiTokenWithUser(
  db: Db,
  digest: string,
  userId: number,
): Promise<{ token?: ApiTokenRecord | undefined; user?: User | undefined }> {
  const items = await getConsistent(db, [keys.apiToken(digest), keys.user(userId)]);
  const token = findItem(items, keys.apiToken(digest));
  const user = findItem(items, keys.user(userId));
  return {
    token: token
      ? {
          digest: token.digest as string,
          userId: token.userId as number,
          expiresAt: Number(token.expiresAt),
          methods: (token.methods as string[] | undefined) ?? [],
        }
      : undefined,
    user: user ? toUser(user) : undefined,
  };
}

/**
 * A PEP proxy's API token (POST /v1/auth/tokens or /v3/auth/tokens with the proxy's id and
 * password): the same item as a user's, naming the proxy instead of a user, so it can never pass
 * for a user's token (apiTokenWithUser compares the user id).
 */
export interface PepTokenRecord {
  digest: string;
  pepProxyId: string;
  /** Epoch seconds. */
  expiresAt: number;
  methods: string[];
}

export async function putPepToken(db: Db, token: PepTokenRecord): Promise<void> {
  await db.doc.put({
    TableName: db.table,
    Item: { ...keys.apiToken(token.digest), type: 'api-token', ...token },
    ConditionExpression: 'attribute_not_exists(PK)',
  });
}

/** A PEP proxy's token by digest (strongly consistent); undefined for a user's or none. */
export async function getPepToken(db: Db, digest: string): Promise<PepTokenRecord | undefined> {
  const item = await getItem(db, keys.apiToken(digest), true);
  if (!item || typeof item.pepProxyId !== 'string') return undefined;
  return {
    digest: item.digest as string,
    pepProxyId: item.pepProxyId,
    expiresAt: Number(item.expiresAt),
    methods: (item.methods as string[] | undefined) ?? [],
  };
}

export async function deleteApiToken(db: Db, digest: string): Promise<void> {
  await db.doc.delete({ TableName: db.table, Key: keys.apiToken(digest) });
}
