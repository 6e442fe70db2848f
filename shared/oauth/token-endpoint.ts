import { invalidRequest, unauthorizedClient, unsupportedGrantType } from '../errors.js';
import type { Db } from '../store/db.js';
import { readTokenRequest } from '../store/token-request.js';
import { presentedClient, verifyClient } from './client-auth.js';
import { GRANTS } from './grants/index.js';
import { type TokenResponse, tokenResponseBody } from './tokens.js';

/**
 * POST /oauth2/token (RFC 6749 §3.2). Round trips: one BatchGetItem (the client + what the grant
 * needs), then the grant's own write (one Put or one TransactWriteItems); the password grant
 * runs bcrypt in between.
 */
export async function tokenEndpoint(
  db: Db,
  form: Map<string, string>,
  authorization: string | undefined,
  issuer: string,
): Promise<TokenResponse> {
  const presented = presentedClient(authorization, form);
  const grantType = form.get('grant_type');
  if (!grantType) throw invalidRequest('grant_type is required.');
  const grant = GRANTS.get(grantType);
  if (!grant) throw unsupportedGrantType(`grant_type ${grantType.slice(0, 50)} is not supported.`);
  const read = await readTokenRequest(db, presented.clientId, grant.needs(form));
  const client = verifyClient(read.client, presented);
  if (!client.grantTypes.includes(grant.enabledBy)) {
    throw unauthorizedClient(`This application has not enabled the ${grant.type} grant.`);
  }
  return tokenResponseBody(await grant.handle({ db, form, client, read, issuer }));
}
