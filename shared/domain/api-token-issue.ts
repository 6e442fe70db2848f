import { randomToken, sha256 } from '../crypto.js';
import { tooMany, unauthorized } from '../errors.js';
import { putApiToken } from '../store/api-tokens.js';
import type { Db } from '../store/db.js';
import { nowSeconds } from '../time.js';
import { LOCKED_OUT, UNVERIFIED, verifyPassword } from './accounts.js';
import {
  type ApiTokenMethod,
  findLive,
  INVALID_CREDENTIALS,
  type IssuedApiToken,
  type TokenCredentials,
} from './api-tokens.js';

/*
 * Issuing an API token checks a password (bcrypt), so it lives apart from the token check every
 * /v1 route runs: the lookups' bundles stay free of bcrypt.
 */

/**
 * POST /v1/auth/tokens: a new token for the user an email and password (through the same
 * brute-force guard as the portal's sign-in) or an existing live token identify; both given
 * must name the same user. Every failure is the same 401, as in Keyrock, so the answer never
 * says whether an email exists; a locked account is 429, as at sign-in.
 */
export async function issueApiToken(
  db: Db,
  credentials: TokenCredentials,
  ttl: number,
): Promise<IssuedApiToken> {
  const methods: ApiTokenMethod[] = [];
  let userId: number | undefined;
  if (credentials.name !== undefined && credentials.password !== undefined) {
    methods.push('password');
    const check = await verifyPassword(db, credentials.name, credentials.password);
    if (!check.ok) {
      if (check.reason === 'locked') throw tooMany(LOCKED_OUT);
      throw unauthorized(check.reason === 'unverified' ? UNVERIFIED : INVALID_CREDENTIALS);
    }
    userId = check.userId;
  }
  if (credentials.token !== undefined) {
    methods.push('token');
    const found = await findLive(db, credentials.token);
    if (!found) throw unauthorized(INVALID_CREDENTIALS);
    if (found.expired) throw unauthorized('Token has expired');
    if (userId !== undefined && found.caller.user.id !== userId) {
      throw unauthorized('Token not correspond to user');
    }
    userId = found.caller.user.id;
  }
  if (userId === undefined) throw unauthorized(INVALID_CREDENTIALS);
  const value = `${userId.toString(36)}.${randomToken(32)}`;
  const expiresAt = nowSeconds() + ttl;
  await putApiToken(db, { digest: sha256(value), userId, expiresAt, methods });
  return { value, expiresAt, methods };
}
