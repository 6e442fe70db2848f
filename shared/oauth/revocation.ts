import { sha256 } from '../crypto.js';
import type { HttpEvent, HttpResult } from '../http/types.js';
import type { Db } from '../store/db.js';
import { keys } from '../store/keys.js';
import { getConsistent, revokeGrant, revokeToken, toToken } from '../store/tokens.js';
import { oauthForm, presentedClient, verifyClient } from './client-auth.js';
import { invalidRequest } from './errors.js';

/**
 * POST /oauth2/revoke (RFC 7009). The client authenticates as at the token endpoint. An unknown
 * token is answered 200 (§2.2: the client cannot act on it anyway); another client's token is
 * refused (§2.1). Revoking a refresh token revokes its whole grant, access tokens included (§2.1
 * SHOULD). Round trips: one BatchGetItem (client + token), then the revocation writes.
 */
export async function revocationEndpoint(db: Db, event: HttpEvent): Promise<HttpResult> {
  const form = oauthForm(event);
  const presented = presentedClient(event, form);
  const value = form.get('token');
  if (!value) throw invalidRequest('token is required.');
  const tokenKey = keys.token(sha256(value));
  const items = await getConsistent(db, [keys.client(presented.clientId), tokenKey]);
  const client = verifyClient(items, presented);
  const item = items.find((i) => i.PK === tokenKey.PK);
  if (item) {
    const token = toToken(item);
    if (token.clientId !== client.clientId) {
      throw invalidRequest('This token was not issued to the client revoking it.');
    }
    if (token.kind === 'refresh') await revokeGrant(db, token.grantId, [token.digest]);
    else await revokeToken(db, token.digest);
  }
  return { statusCode: 200, headers: { 'cache-control': 'no-store', pragma: 'no-cache' }, body: '' };
}
