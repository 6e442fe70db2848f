import { routeHandler } from '../shared/http/cors.js';
import { tokenEndpoint } from '../shared/oauth/token-endpoint.js';
import { db } from '../shared/store/db.js';

/** POST /oauth2/token (RFC 6749 §3.2): every grant but the implicit one. */
export const handler = routeHandler('POST /oauth2/token', (event) => tokenEndpoint(db(), event));
