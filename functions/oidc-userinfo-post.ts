import { endpoint } from '../shared/http/handler.js';
import { formBody, header } from '../shared/http/request.js';
import { json } from '../shared/http/response.js';
import { bearerValue } from '../shared/oauth/bearer.js';
import { userInfo } from '../shared/oidc/userinfo.js';

/**
 * POST /oauth2/userinfo (OIDC Core §5.3.1): the token in the Authorization header, or in a form
 * body's `access_token` (RFC 6750 §2.2), never both (§2).
 */
export const handler = endpoint('oidc-userinfo-post', async ({ db, event }) => {
  const form = event.body ? formBody(event) : new Map<string, string>();
  const bearer = bearerValue(header(event, 'authorization'), form);
  return json(200, await userInfo(db, bearer), { 'cache-control': 'no-store' });
});
