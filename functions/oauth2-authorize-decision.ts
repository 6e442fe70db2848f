import { routeHandler } from '../shared/http/cors.js';
import { authorizeDecision } from '../shared/oauth/authorize-endpoint.js';
import { db } from '../shared/store/db.js';

/** POST /oauth2/authorize: the Allow / Deny of the consent page. No CORS. */
export const handler = routeHandler('POST /oauth2/authorize', (event) => authorizeDecision(db(), event));
