import { DeleteCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import type { Db } from './db.js';
import { keys } from './keys.js';
import { findItem } from './ops.js';
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
  await db.doc.send(
    new PutCommand({
      TableName: db.table,
      Item: { ...keys.apiToken(token.digest), type: 'api-token', ...token },
      ConditionExpression: 'attribute_not_exists(PK)',
    }),
  );
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

export async function deleteApiToken(db: Db, digest: string): Promise<void> {
  await db.doc.send(new DeleteCommand({ TableName: db.table, Key: keys.apiToken(digest) }));
}
