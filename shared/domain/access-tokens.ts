import { sha256 } from '../crypto.js';
import { invalidToken } from '../errors.js';
import { tokenWithUserInApplication } from '../store/access.js';
import { type Client, getClient } from '../store/applications.js';
import type { Db } from '../store/db.js';
import { getToken, isLive, type TokenRecord, tokenHint } from '../store/tokens.js';
import { getUser, type User } from '../store/users.js';
import { type ResolvedRoles, resolved, resolveRoles } from './roles.js';

const UNKNOWN = 'The access token is unknown, expired or revoked.';

/** A JWS compact serialisation whose header is JSON (`eyJ` = base64url of `{"`). Opaque values never are. */
const COMPACT_JWS = /^eyJ[A-Za-z0-9_-]*\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/;

/** An RFC 9068 JWT access token rather than one of the opaque values (store/tokens.ts). */
export function looksLikeJwt(value: string): boolean {
  return value.length <= 8192 && COMPACT_JWS.test(value);
}

/**
 * Verifies a JWT access token (jwt-access-tokens.ts). Imported on first use: every function with
 * bearer authentication carries the verifier, only those that meet a JWT load jose.
 */
async function verifyJwt(value: string): Promise<TokenRecord> {
  const { verifyJwtAccessToken } = await import('./jwt-access-tokens.js');
  return verifyJwtAccessToken(value);
}

/** RFC 6750 §3.1: an unknown, expired, revoked or refresh token is invalid_token. */
function checked(token: TokenRecord | undefined): TokenRecord {
  if (token?.kind !== 'access' || !isLive(token)) throw invalidToken(UNKNOWN);
  return token;
}

/** One strongly consistent GetItem; a JWT access token (RFC 9068) is verified instead, no read. */
export async function requireAccessToken(db: Db, value: string): Promise<TokenRecord> {
  if (looksLikeJwt(value)) return verifyJwt(value);
  return checked(value.length <= 200 ? await getToken(db, sha256(value)) : undefined);
}

/**
 * The token, checked, with the roles a user holds in the token's application: by default the
 * token's own user, or `userId`. When the value names its application and user (every token this
 * version issues), the token is read together with the user and the catalogue (two round trips
 * in all, store/access.ts); an older token is read first. `roles` is undefined for a client's own
 * token (no user to ask about) and for a user that does not exist. The token's own user must
 * exist and be enabled (an administrator's switch takes effect at once, as in Keycloak, where
 * a disabled user's tokens fail introspection and UserInfo): the check uses the profile read
 * anyway, or one read in the same round trip when the question is about someone else.
 * `appClientId`: a client read along in the first round trip (GET /user's `app_id`, with its
 * trusted applications); `appClient` is it, undefined when unknown.
 */
export async function tokenAndRoles(
  db: Db,
  value: string,
  userId?: number,
  appClientId?: string,
): Promise<{ token: TokenRecord; roles: ResolvedRoles | undefined; appClient?: Client | undefined }> {
  const client = () => (appClientId === undefined ? undefined : getClient(db, appClientId));
  if (looksLikeJwt(value)) {
    // RFC 9068: the token is its own record; only the user and the roles are read.
    const [token, appClient] = await Promise.all([verifyJwt(value), client()]);
    return { ...(await withRoles(db, token, userId)), appClient };
  }
  const hint = tokenHint(value);
  const subject = userId ?? hint?.userId;
  if (hint && subject !== undefined) {
    const read = await tokenWithUserInApplication(
      db,
      sha256(value),
      subject,
      hint.appId,
      hint.userId,
      appClientId,
    );
    const token = checked(read.token);
    // The ids are part of the value whose digest found the token, so they are the token's own.
    if (token.appId !== hint.appId || token.userId !== hint.userId) throw invalidToken(UNKNOWN);
    if (token.userId !== undefined) requireEnabled(read.holder);
    return { token, roles: resolved(read.found), appClient: read.client };
  }
  // A token without a user (a client's own, an IoT agent's) or an older one: read first.
  const [token, appClient] = await Promise.all([requireAccessToken(db, value), client()]);
  return { ...(await withRoles(db, token, userId)), appClient };
}

/** The roles of `userId` (or the token's user) for a token already read, with its holder checked. */
async function withRoles(db: Db, token: TokenRecord, userId: number | undefined) {
  const who = userId ?? token.userId;
  const holderId = token.userId;
  const [roles, holder] = await Promise.all([
    who === undefined ? undefined : resolveRoles(db, who, token.appId),
    holderId !== undefined && holderId !== who ? getUser(db, holderId) : undefined,
  ]);
  if (holderId !== undefined) requireEnabled(holderId === who ? roles?.user : holder);
  return { token, roles };
}

const DISABLED_HOLDER = 'The user of this access token is disabled.';

/**
 * RFC 6750 §3.1 invalid_token for a disabled user's token. A deleted user's token is left to the
 * caller, which says so in its own words (GET /user: "no longer exists").
 */
function requireEnabled(holder: User | undefined): void {
  if (holder?.enabled === false) throw invalidToken(DISABLED_HOLDER);
}
