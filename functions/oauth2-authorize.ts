import { routeHandler } from '../shared/http/cors.js';
import { authorizeGet } from '../shared/oauth/authorize-endpoint.js';
import { db } from '../shared/store/db.js';

/** GET /oauth2/authorize (RFC 6749 §4.1.1, §4.2.1). No CORS: a browser navigates here. */
export const handler = routeHandler('GET /oauth2/authorize', (event) => authorizeGet(db(), event));
