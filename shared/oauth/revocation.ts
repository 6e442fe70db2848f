import { sha256 } from '../crypto.js';
import { invalidRequest } from '../errors.js';
import type { Db } from '../store/db.js';
import { readTokenRequest } from '../store/token-request.js';
import { revokeGrant, revokeToken } from '../store/tokens.js';
import { presentedClient, verifyClient } from './client-auth.js';

/**
 * POST /oauth2/revoke (RFC 7009). The client authenticates as at the token endpoint. An unknown
 * token is answered 200 (§2.2: the client cannot act on it anyway); another client's token is
 * refused (§2.1). Revoking a refresh token revokes its whole grant, access tokens included (§2.1
 * SHOULD). Round trips: one BatchGetItem (client + token), then the revocation writes.
 */
export async function revoke(db: Db, form: Map<string, string>, authorization: string | undefined) {
  const presented = presentedClient(authorization, form);
  const value = form.get('token');
  if (!value) throw invalidRequest('token is required.');
  const read = await readTokenRequest(db, presented.clientId, { token: sha256(value) });
  const client = verifyClient(read.client, presented);
  const token = read.token;
  if (!token) return;
  if (token.clientId !== client.clientId) {
    throw invalidRequest('This token was not issued to the client revoking it.');
  }
  if (token.kind === 'refresh') await revokeGrant(db, token.grantId, [token.digest]);
  else await revokeToken(db, token.digest);
}
