import { bearerEndpoint } from '../shared/http/bearer-endpoint.js';
import { json } from '../shared/http/response.js';
import { userInfo } from '../shared/oidc/userinfo.js';

/** GET /oauth2/userinfo (OIDC Core §5.3): the token's user as OpenID Connect claims. */
export const handler = bearerEndpoint('oidc-userinfo', async ({ db, bearer }) =>
  json(200, await userInfo(db, bearer), { 'cache-control': 'no-store' }),
);
