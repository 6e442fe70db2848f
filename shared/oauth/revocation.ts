import { sha256 } from '../crypto.js';
import { looksLikeJwt } from '../domain/access-tokens.js';
import type { VerifiedJwt } from '../domain/jwt-access-tokens.js';
import { invalidRequest } from '../errors.js';
import type { Db } from '../store/db.js';
import { readTokenRequest } from '../store/token-request.js';
import { denyJwt, revokeGrant, revokeToken } from '../store/tokens.js';
import { presentedClient, verifyClient } from './client-auth.js';

/**
 * A JWT access token (RFC 9068) verified with the published keys, or undefined. The verifier is
 * imported on first use, so a revocation of an opaque token never evaluates jose.
 */
async function verifiedJwt(value: string): Promise<VerifiedJwt | undefined> {
  const { jwtAccessTokenOrUndefined } = await import('../domain/jwt-access-tokens.js');
  return jwtAccessTokenOrUndefined(value);
}

/**
 * POST /oauth2/revoke (RFC 7009). The client authenticates as at the token endpoint. An unknown
 * token is answered 200 (§2.2: the client cannot act on it anyway); another client's token is
 * refused (§2.1). Revoking a refresh token revokes its whole grant, access tokens included (§2.1
 * SHOULD). A JWT access token's `jti` goes on the deny-list until the token expires, which is
 * what introspection checks (a client-credentials JWT has no record to mark; docs/decisions.md
 * says where the deny-list is and is not read). Round trips: one BatchGetItem (client + token,
 * while a JWT's signature is checked), then the revocation writes, in parallel.
 */
export async function revoke(db: Db, form: Map<string, string>, authorization: string | undefined) {
  const presented = presentedClient(authorization, form);
  const value = form.get('token');
  if (!value) throw invalidRequest('token is required.');
  const [read, jwt] = await Promise.all([
    readTokenRequest(db, presented.clientId, { token: sha256(value) }),
    looksLikeJwt(value) ? verifiedJwt(value) : undefined,
  ]);
  const client = verifyClient(read.client, presented);
  const token = read.token ?? jwt;
  if (!token) return;
  if (token.clientId !== client.clientId) {
    throw invalidRequest('This token was not issued to the client revoking it.');
  }
  await Promise.all([
    read.token?.kind === 'refresh' ? revokeGrant(db, read.token.grantId, [read.token.digest]) : undefined,
    read.token?.kind === 'access' ? revokeToken(db, read.token.digest) : undefined,
    jwt ? denyJwt(db, jwt.jti, jwt.expiresAt) : undefined,
  ]);
}
