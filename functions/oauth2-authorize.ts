import { httpHandler } from '../shared/http/handler.js';
import { authorizeGet } from '../shared/oauth/authorize-endpoint.js';
import { db } from '../shared/store/db.js';

/** GET /oauth2/authorize (RFC 6749 §4.1.1, §4.2.1). No CORS: a browser navigates here. */
export const handler = httpHandler('GET /oauth2/authorize', (event) => authorizeGet(db(), event));
