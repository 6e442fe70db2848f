import { sha256 } from '../crypto.js';
import { looksLikeJwt } from '../domain/access-tokens.js';
import { jwtAccessTokenOrUndefined } from '../domain/jwt-access-tokens.js';
import { invalidRequest } from '../errors.js';
import { subjectOf } from '../oidc/claims.js';
import type { Db } from '../store/db.js';
import { readTokenRequest } from '../store/token-request.js';
import { isLive, tokenHint } from '../store/tokens.js';
import { getUser } from '../store/users.js';
import { presentedClient, verifyClient } from './client-auth.js';

/** RFC 7662 §2.2: the answer for anything that is not a live token of the asking client. */
const INACTIVE = { active: false } as const;

/**
 * POST /oauth2/introspect (RFC 7662). The client authenticates as at the token endpoint (§2.1)
 * and learns about its own tokens only: another client's token is `active: false`, like an
 * unknown, expired, revoked or rotated one (§2.2, and §4: nothing tells them apart). Round trips:
 * one BatchGetItem (client, token, for an access token the user its value names, for a JWT its
 * deny-list entry); a refresh
 * token's user is read after.
 */
export async function introspect(
  db: Db,
  form: Map<string, string>,
  authorization: string | undefined,
  issuer: string,
) {
  const presented = presentedClient(authorization, form);
  const value = form.get('token');
  if (!value) throw invalidRequest('token is required.');
  // A JWT access token (RFC 9068) is verified by its signature (a JWT that does not verify is
  // simply not active, §2.2); a user's also has a record, which says whether it was revoked; a
  // revoked one's `jti` is on the deny-list, read in the same BatchGetItem (RFC 7009 §2).
  const jwt = looksLikeJwt(value) ? await jwtAccessTokenOrUndefined(value) : undefined;
  // token_type_hint (§2.1) is optional and needs no use: one read finds either kind.
  const hintedUser = jwt ? jwt.userId : tokenHint(value)?.userId;
  const read = await readTokenRequest(db, presented.clientId, {
    token: sha256(value),
    userId: hintedUser,
    jti: jwt?.jti,
  });
  const client = verifyClient(read.client, presented);
  if (looksLikeJwt(value) && (!jwt || read.jtiRevoked)) return INACTIVE;
  const token = read.token ?? jwt;
  if (!token || !isLive(token) || token.rotated || token.clientId !== client.clientId) return INACTIVE;
  let username: string | undefined;
  if (token.userId !== undefined) {
    const user = token.userId === hintedUser ? read.user : await getUser(db, token.userId);
    if (!user) return INACTIVE; // the user was deleted: the token no longer stands for anyone
    // A disabled account's tokens are not active while it stays disabled (as in Keycloak).
    if (user.enabled === false) return INACTIVE;
    username = user.email;
  }
  return {
    active: true,
    ...(token.scope ? { scope: token.scope } : {}),
    client_id: token.clientId,
    ...(username !== undefined ? { username } : {}),
    // RFC 6749 §7.1 token types name access tokens; a refresh token has none.
    ...(token.kind === 'access' ? { token_type: 'Bearer' } : {}),
    // RFC 7662 §2.2: exp is optional; a permanent token (Keyrock's type) has none.
    ...(Number.isFinite(token.expiresAt) ? { exp: token.expiresAt } : {}),
    ...(token.issuedAt !== undefined ? { iat: token.issuedAt } : {}),
    // A client's own token (client credentials) has the client as its subject (RFC 9068 §2.2).
    sub: token.userId !== undefined ? subjectOf(token.userId) : token.clientId,
    aud: token.clientId,
    iss: issuer,
  };
}
