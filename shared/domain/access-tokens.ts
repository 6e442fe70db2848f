import { sha256 } from '../crypto.js';
import { invalidToken } from '../errors.js';
import { tokenWithUserInApplication } from '../store/access.js';
import type { Db } from '../store/db.js';
import { getToken, isLive, type TokenRecord, tokenHint } from '../store/tokens.js';
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
 * token (no user to ask about) and for a user that does not exist.
 */
export async function tokenAndRoles(
  db: Db,
  value: string,
  userId?: number,
): Promise<{ token: TokenRecord; roles: ResolvedRoles | undefined }> {
  if (looksLikeJwt(value)) {
    // RFC 9068: the token is its own record; only the user and the roles are read.
    const token = await verifyJwt(value);
    const who = userId ?? token.userId;
    return { token, roles: who === undefined ? undefined : await resolveRoles(db, who, token.appId) };
  }
  const hint = tokenHint(value);
  const subject = userId ?? hint?.userId;
  if (hint && subject !== undefined) {
    const read = await tokenWithUserInApplication(db, sha256(value), subject, hint.appId);
    const token = checked(read.token);
    // The ids are part of the value whose digest found the token, so they are the token's own.
    if (token.appId !== hint.appId || token.userId !== hint.userId) throw invalidToken(UNKNOWN);
    return { token, roles: resolved(read.found) };
  }
  const token = await requireAccessToken(db, value);
  const who = userId ?? token.userId;
  if (who === undefined) return { token, roles: undefined };
  return { token, roles: await resolveRoles(db, who, token.appId) };
}
