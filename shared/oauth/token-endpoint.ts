import type { HttpEvent, HttpResult } from '../http/types.js';
import type { Db } from '../store/db.js';
import { keys } from '../store/keys.js';
import { getConsistent } from '../store/tokens.js';
import { oauthForm, presentedClient, verifyClient } from './client-auth.js';
import { invalidRequest, unauthorizedClient, unsupportedGrantType } from './errors.js';
import { GRANTS } from './grants/index.js';
import { tokenResponse } from './tokens.js';

/**
 * POST /oauth2/token (RFC 6749 §3.2). Round trips: one BatchGetItem (client + what the grant
 * needs), then the grant's own write (one Put or one TransactWriteItems); the password grant
 * runs bcrypt in between.
 */
export async function tokenEndpoint(db: Db, event: HttpEvent): Promise<HttpResult> {
  const form = oauthForm(event);
  const presented = presentedClient(event, form);
  const grantType = form.get('grant_type');
  if (!grantType) throw invalidRequest('grant_type is required.');
  const grant = GRANTS.get(grantType);
  if (!grant) throw unsupportedGrantType(`grant_type ${grantType.slice(0, 50)} is not supported.`);
  const wanted = grant.keys(form);
  const items = await getConsistent(db, [keys.client(presented.clientId), ...wanted]);
  const client = verifyClient(items, presented);
  if (!client.grantTypes.includes(grant.enabledBy)) {
    throw unauthorizedClient(`This application has not enabled the ${grant.type} grant.`);
  }
  return tokenResponse(await grant.handle({ db, form, client, items }));
}
