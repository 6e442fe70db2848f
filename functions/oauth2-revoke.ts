import { routeHandler } from '../shared/http/cors.js';
import { revocationEndpoint } from '../shared/oauth/revocation.js';
import { db } from '../shared/store/db.js';

/** POST /oauth2/revoke (RFC 7009). */
export const handler = routeHandler('POST /oauth2/revoke', (event) => revocationEndpoint(db(), event));
