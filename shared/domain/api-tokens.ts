import { sha256 } from '../crypto.js';
import { apiTokenRefused, forbidden, notFound, unauthorized } from '../errors.js';
import {
  type ApiTokenRecord,
  apiTokenWithUser,
  deleteApiToken,
  getPepToken,
  type PepTokenRecord,
} from '../store/api-tokens.js';
import type { Db } from '../store/db.js';
import type { User } from '../store/users.js';
import { nowSeconds } from '../time.js';

/**
 * Keyrock API tokens: what `POST /v1/auth/tokens` issues and every other `/v1` call presents in
 * `X-Auth-Token`. The value is `<userId in base 36>.<256 random bits>`: the id is not secret
 * (the token's holder knows its own user) and proves nothing, since only the digest of the whole
 * value finds the token; it lets the token and its user be read in one round trip. Keyrock's
 * tokens are UUIDs; clients treat them as opaque strings.
 */
export type ApiTokenMethod = 'password' | 'token' | 'totp' | 'recovery';

/** The authenticated caller of a /v1 route: the token's user as it is now, and the token. */
export interface ApiCaller {
  user: User;
  token: ApiTokenRecord;
}

/** What a token request proves: an email and password, an existing token, or both. */
export interface TokenCredentials {
  name?: string | undefined;
  password?: string | undefined;
  token?: string | undefined;
  /** A second-factor code (authenticator app or recovery code) for an account with two-factor on. */
  code?: string | undefined;
}

export interface IssuedApiToken {
  value: string;
  expiresAt: number;
  methods: ApiTokenMethod[];
}

export const INVALID_CREDENTIALS = 'Invalid email or password';
/** Keyrock's words for a PEP proxy's wrong id or password (controllers/api/authenticate.js). */
export const INVALID_PEP_CREDENTIALS = 'Invalid id or password';
const VALUE = /^([0-9a-z]{1,11})\.[A-Za-z0-9_-]{43}$/;

export type Found = { expired: false; caller: ApiCaller } | { expired: true };

/** The token a value names, with its user; undefined for an unknown token or user. */
export async function findLive(db: Db, value: string): Promise<Found | undefined> {
  const m = VALUE.exec(value);
  if (!m) return undefined;
  const userId = Number.parseInt(m[1]!, 36);
  if (!Number.isSafeInteger(userId) || userId < 1) return undefined;
  const { token, user } = await apiTokenWithUser(db, sha256(value), userId);
  // A disabled account's tokens stop at once: the user is read with the token anyway.
  if (!token || !user || token.userId !== userId || user.enabled === false) return undefined;
  // TTL deletes lazily (hours late, never in DynamoDB Local): the read checks expiry itself.
  if (token.expiresAt <= nowSeconds()) return { expired: true };
  return { expired: false, caller: { user, token } };
}

/**
 * A PEP proxy's API token: `pep_<256 random bits>`, a form no user's token has, so a value is
 * looked up as one or the other, never both.
 */
const PEP_VALUE = /^pep_[A-Za-z0-9_-]{43}$/;
export const isPepTokenValue = (value: string) => PEP_VALUE.test(value);

export type FoundPep = { expired: false; token: PepTokenRecord } | { expired: true };

/** The PEP proxy token a value names; undefined for an unknown one. */
export async function findLivePep(db: Db, value: string): Promise<FoundPep | undefined> {
  if (!isPepTokenValue(value)) return undefined;
  const token = await getPepToken(db, sha256(value));
  if (!token) return undefined;
  if (token.expiresAt <= nowSeconds()) return { expired: true };
  return { expired: false, token };
}

/** The caller of a /v1 route, or 401 (Keyrock's words for an expired token). */
export async function authenticateApiToken(db: Db, value: string | undefined): Promise<ApiCaller> {
  if (!value) throw apiTokenRefused('Expecting to find X-Auth-token/Authorization in requests');
  if (isPepTokenValue(value)) {
    // Keyrock's is_user: a PEP proxy's token signs it in, and is refused on the rest of /v1.
    const pep = await findLivePep(db, value);
    if (!pep) throw apiTokenRefused('Token not found');
    if (pep.expired) throw apiTokenRefused('Token has expired');
    throw forbidden('User not allow to perform the action');
  }
  const found = await findLive(db, value);
  if (!found) throw apiTokenRefused('Token not found');
  if (found.expired) throw apiTokenRefused('Token has expired');
  return found.caller;
}

/** A subject token the caller may see: its own, or anyone's for an administrator. */
async function subjectOf(
  db: Db,
  caller: ApiCaller,
  subject: string,
): Promise<{ found?: ApiCaller; allowed: boolean }> {
  const found = await findLive(db, subject);
  if (!found || found.expired) return { allowed: false };
  return {
    found: found.caller,
    allowed: found.caller.user.id === caller.user.id || caller.user.admin === true,
  };
}

/**
 * GET /v1/auth/tokens: the subject token (`X-Subject-Token`) with its user. As in Keyrock, an
 * unknown subject and someone else's token are the same 401, so tokens cannot be probed.
 */
export async function apiTokenInfo(db: Db, caller: ApiCaller, subject: string): Promise<ApiCaller> {
  const { found, allowed } = await subjectOf(db, caller, subject);
  if (!found || !allowed) throw unauthorized(INVALID_CREDENTIALS);
  return found;
}

/** DELETE /v1/auth/tokens: revokes the subject token (one's own, or any for an administrator). */
export async function revokeApiToken(db: Db, caller: ApiCaller, subject: string): Promise<void> {
  const { found, allowed } = await subjectOf(db, caller, subject);
  if (!found) throw notFound('Subject Token not found');
  if (!allowed) throw forbidden('User must be admin or owner of the two tokens');
  await deleteApiToken(db, found.token.digest);
}

const NOT_AUTHORIZED = 'User not authorized to perform action';

/** Administrators only (Keyrock's 403 otherwise). */
export function requireAdmin(caller: ApiCaller): void {
  if (caller.user.admin !== true) throw forbidden(NOT_AUTHORIZED);
}
