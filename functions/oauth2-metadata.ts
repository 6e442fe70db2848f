import { routeHandler } from '../shared/http/cors.js';
import { json } from '../shared/http/response.js';
import { serverMetadata } from '../shared/oauth/metadata.js';

/** GET /.well-known/oauth-authorization-server (RFC 8414). No table access. */
export const handler = routeHandler('GET /.well-known/oauth-authorization-server', async (event) =>
  json(200, serverMetadata(event), { 'cache-control': 'public, max-age=300' }),
);
