import { nowSeconds } from '../time.js';
import type { Db } from './db.js';
import { type Key, keys } from './keys.js';
import { batchGet, type Item, isConditionalFailure, queryGsi1, TransactionFailed, transact } from './ops.js';

/**
 * Access tokens, refresh tokens and authorization codes. The caller holds the random value; the
 * table holds only its SHA-256 digest (the key), so a leaked table leaks no usable token. Every
 * token carries a grant id: all tokens descending from one authorization (a code, a password
 * grant, their refreshes) share it and are found together through GSI1 to revoke a whole chain.
 * TTL deletes lazily, so every read here checks `expiresAt` and `revoked` itself.
 */
export type TokenKind = 'access' | 'refresh';

export interface TokenRecord {
  digest: string;
  kind: TokenKind;
  clientId: string;
  appId: number;
  userId?: number | undefined;
  /** An IoT agent's token (password grant with the agent's id, Keyrock's `iot_id`): no user. */
  iotAgentId?: string | undefined;
  scope?: string | undefined;
  grantId: string;
  /** Epoch seconds; `PERMANENT` (Infinity) for Keyrock's permanent tokens, stored without it. */
  expiresAt: number;
  /** When it was issued (epoch seconds; introspection's `iat`). Absent on older tokens. */
  issuedAt?: number | undefined;
  revoked: boolean;
  /** Refresh tokens only: set when it was exchanged for a new one (RFC 9700 §4.14 rotation). */
  rotated?: boolean | undefined;
}

export interface CodeRecord {
  digest: string;
  clientId: string;
  appId: number;
  userId: number;
  redirectUri: string;
  scope?: string | undefined;
  codeChallenge?: string | undefined;
  /** OpenID Connect: the request's nonce and the user's sign-in time, for the ID token. */
  nonce?: string | undefined;
  authTime?: number | undefined;
  /** How the user signed in (RFC 8176), for the ID token's `amr`. */
  amr?: string[] | undefined;
  grantId: string;
  expiresAt: number;
  redeemed: boolean;
  /** Digests of the tokens issued for this code, for revocation on reuse (RFC 6749 §4.1.2). */
  issued: string[];
}

/**
 * The expiry of Keyrock's `permanent` access tokens: none. Such an item has no `expiresAt`, so
 * TTL never removes it; it works until revoked.
 */
export const PERMANENT = Number.POSITIVE_INFINITY;

export function tokenItem(t: Omit<TokenRecord, 'revoked'>): Item {
  const { expiresAt, ...rest } = t;
  return {
    ...keys.token(t.digest),
    ...keys.grantGsi(t.grantId),
    type: 'token',
    ...rest,
    ...(Number.isFinite(expiresAt) ? { expiresAt } : {}),
    revoked: false,
  };
}

export function toToken(item: Item): TokenRecord {
  return {
    digest: item.digest as string,
    kind: item.kind as TokenKind,
    clientId: item.clientId as string,
    appId: item.appId as number,
    userId: item.userId as number | undefined,
    ...(typeof item.iotAgentId === 'string' ? { iotAgentId: item.iotAgentId } : {}),
    scope: item.scope as string | undefined,
    grantId: item.grantId as string,
    expiresAt: item.expiresAt === undefined ? PERMANENT : Number(item.expiresAt),
    issuedAt: item.issuedAt as number | undefined,
    revoked: item.revoked === true,
    rotated: item.rotated === true,
  };
}

export function toCode(item: Item): CodeRecord {
  return {
    digest: item.digest as string,
    clientId: item.clientId as string,
    appId: item.appId as number,
    userId: item.userId as number,
    redirectUri: item.redirectUri as string,
    scope: item.scope as string | undefined,
    codeChallenge: item.codeChallenge as string | undefined,
    nonce: item.nonce as string | undefined,
    authTime: item.authTime as number | undefined,
    amr: item.amr as string[] | undefined,
    grantId: item.grantId as string,
    expiresAt: Number(item.expiresAt),
    redeemed: item.redeemed === true,
    issued: (item.issued as string[] | undefined) ?? [],
  };
}

/**
 * An access token's value: `<userId>.<appId>.<256 random bits>` (ids in base 36, 0 for no user).
 * The ids are not secret (GET /user tells them to the token's holder) and prove nothing: only the
 * digest of the whole value finds the token. They let GET /user start reading the user and the
 * application's catalogue in the same round trip as the token (docs/decisions.md).
 */
export function accessTokenValue(userId: number | undefined, appId: number, random: string): string {
  return `${(userId ?? 0).toString(36)}.${appId.toString(36)}.${random}`;
}

export interface TokenHint {
  /** Undefined for a client's own token (client credentials). */
  userId: number | undefined;
  appId: number;
}

const HINTED = /^([0-9a-z]{1,11})\.([0-9a-z]{1,11})\.[A-Za-z0-9_-]{43}$/;

/** The ids an access token's value carries; undefined for any other value (older tokens included). */
export function tokenHint(value: string): TokenHint | undefined {
  const m = HINTED.exec(value);
  if (!m) return undefined;
  const userId = Number.parseInt(m[1]!, 36);
  const appId = Number.parseInt(m[2]!, 36);
  if (!Number.isSafeInteger(userId) || !Number.isSafeInteger(appId) || appId < 1) return undefined;
  return { userId: userId === 0 ? undefined : userId, appId };
}

/** Live = not expired and not revoked: an item TTL has not removed yet is still refused. */
export function isLive(t: { expiresAt: number; revoked?: boolean }, now = nowSeconds()): boolean {
  return t.expiresAt > now && t.revoked !== true;
}

export async function getToken(db: Db, digest: string): Promise<TokenRecord | undefined> {
  // Strongly consistent: a token revoked a moment ago must not pass.
  const out = await db.doc.get({ TableName: db.table, Key: keys.token(digest), ConsistentRead: true });
  return out.Item ? toToken(out.Item) : undefined;
}

export async function getCode(db: Db, digest: string): Promise<CodeRecord | undefined> {
  const out = await db.doc.get({ TableName: db.table, Key: keys.code(digest), ConsistentRead: true });
  return out.Item ? toCode(out.Item) : undefined;
}

/**
 * The Puts of tokens issued together, plus, for a user's refresh token, its grant's entry under
 * the user (keys.ts pattern 26) living as long as the token: a password reset finds every grant
 * that can still mint tokens there and revokes it (shared/domain/account-links.ts).
 */
function tokenPuts(db: Db, tokens: Omit<TokenRecord, 'revoked'>[]) {
  const grants = tokens
    .filter((t) => t.kind === 'refresh' && t.userId !== undefined)
    .map((t) => ({
      Put: {
        TableName: db.table,
        Item: {
          ...keys.userGrant(t.userId!, t.grantId),
          type: 'userGrant',
          grantId: t.grantId,
          expiresAt: t.expiresAt,
        },
      },
    }));
  return [...tokens.map((t) => ({ Put: { TableName: db.table, Item: tokenItem(t) } })), ...grants];
}

/** Stores tokens that belong together (an access token and its refresh token) all or nothing. */
export async function putTokens(db: Db, tokens: Omit<TokenRecord, 'revoked'>[]): Promise<void> {
  // A Keyrock jwt access token without a refresh token is stored nowhere.
  if (tokens.length === 0) return;
  if (tokens.length === 1) {
    await db.doc.put({ TableName: db.table, Item: tokenItem(tokens[0]!) });
    return;
  }
  await transact(db, tokenPuts(db, tokens));
}

export async function putCode(db: Db, code: Omit<CodeRecord, 'redeemed' | 'issued'>): Promise<void> {
  await db.doc.put({
    TableName: db.table,
    Item: { ...keys.code(code.digest), type: 'code', ...code, redeemed: false, issued: [] },
    ConditionExpression: 'attribute_not_exists(PK)',
  });
}

export type RedeemOutcome = 'issued' | 'reused';

/**
 * Exchanges a code for tokens in ONE transaction: the code flips to redeemed (only if it was not)
 * and records the digests of the tokens it issues, which are written in the same transaction.
 * Of any number of concurrent redemptions exactly one wins; a loser gets 'reused'.
 */
export async function redeemCode(
  db: Db,
  code: CodeRecord,
  tokens: Omit<TokenRecord, 'revoked'>[],
): Promise<RedeemOutcome> {
  const keep = Math.max(code.expiresAt, ...tokens.map((t) => t.expiresAt));
  const issued = tokens.map((t) => t.digest);
  try {
    await transact(db, [
      {
        Update: {
          TableName: db.table,
          Key: keys.code(code.digest),
          // The redeemed code outlives its 5 minutes (TTL) as long as its tokens do, so that a
          // late replay is still recognised and still revokes them (RFC 6749 §4.1.2).
          // A permanent token (no expiry) keeps its code without one, as long as the token lives.
          ...(Number.isFinite(keep)
            ? {
                UpdateExpression: 'SET redeemed = :t, issued = :issued, expiresAt = :keep',
                ExpressionAttributeValues: { ':t': true, ':f': false, ':issued': issued, ':keep': keep },
              }
            : {
                UpdateExpression: 'SET redeemed = :t, issued = :issued REMOVE expiresAt',
                ExpressionAttributeValues: { ':t': true, ':f': false, ':issued': issued },
              }),
          ConditionExpression: 'attribute_exists(PK) AND redeemed = :f',
        },
      },
      ...tokenPuts(db, tokens),
    ]);
    return 'issued';
  } catch (error) {
    if (!(error instanceof TransactionFailed)) throw error;
    if (error.failedAt(0)) return 'reused';
    // Cancelled by conflicts until retries ran out: whoever won has marked the code by now.
    if ((await getCode(db, code.digest))?.redeemed) return 'reused';
    throw error;
  }
}

export type RotateOutcome = 'rotated' | 'replayed' | 'revoked';

/**
 * Refresh token rotation in ONE transaction: the old refresh token is marked rotated (only if it
 * was neither rotated nor revoked) and the new access and refresh tokens are written.
 */
export async function rotateRefresh(
  db: Db,
  old: TokenRecord,
  tokens: Omit<TokenRecord, 'revoked'>[],
): Promise<RotateOutcome> {
  try {
    await transact(db, [
      {
        Update: {
          TableName: db.table,
          Key: keys.token(old.digest),
          UpdateExpression: 'SET rotated = :t',
          ConditionExpression: 'attribute_exists(PK) AND revoked = :f AND attribute_not_exists(rotated)',
          ExpressionAttributeValues: { ':t': true, ':f': false },
        },
      },
      ...tokenPuts(db, tokens),
    ]);
    return 'rotated';
  } catch (error) {
    if (!(error instanceof TransactionFailed && error.failedAt(0))) throw error;
    const now = await getToken(db, old.digest);
    return now?.rotated ? 'replayed' : 'revoked';
  }
}

async function markRevoked(db: Db, key: Key): Promise<void> {
  await db.doc
    .update({
      TableName: db.table,
      Key: key,
      UpdateExpression: 'SET revoked = :t',
      ConditionExpression: 'attribute_exists(PK)',
      ExpressionAttributeValues: { ':t': true },
    })
    .catch((error) => {
      if (!isConditionalFailure(error)) throw error;
    });
}

export async function revokeToken(db: Db, digest: string): Promise<void> {
  await markRevoked(db, keys.token(digest));
}

/**
 * Puts a JWT access token on the deny-list (keys.ts pattern 23) until `expiresAt`, its `exp`:
 * DynamoDB's TTL removes the entry once the token could not be accepted anyway. Writing it again
 * (a second revocation) changes nothing.
 */
export async function denyJwt(db: Db, jti: string, expiresAt: number): Promise<void> {
  await db.doc.put({
    TableName: db.table,
    Item: { ...keys.revokedJti(jti), type: 'revokedJti', jti, expiresAt },
  });
}

/**
 * Revokes every token of a grant: those found through GSI1 (eventually consistent) plus the
 * digests the caller already knows (e.g. recorded on the code item), which the index may not
 * show yet.
 */
export async function revokeGrant(db: Db, grantId: string, known: string[] = []): Promise<number> {
  const items = await queryGsi1(db, keys.grantPartition(grantId));
  const digests = new Set([
    ...known,
    ...items.filter((i) => i.revoked !== true).map((i) => i.digest as string),
  ]);
  await Promise.all([...digests].map((d) => revokeToken(db, d)));
  return digests.size;
}

/**
 * One strongly consistent BatchGetItem for what a token request needs (client, code or refresh
 * token, login and guard): a code written a millisecond ago, or a token revoked a millisecond
 * ago, must be seen as it is now.
 */
export function getConsistent(db: Db, keyList: Key[]): Promise<Item[]> {
  return batchGet(db, keyList, true);
}
