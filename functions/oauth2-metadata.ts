import { endpoint } from '../shared/http/handler.js';
import { requestOrigin } from '../shared/http/request.js';
import { json } from '../shared/http/response.js';
import { serverMetadata } from '../shared/oauth/metadata.js';

/** GET /.well-known/oauth-authorization-server (RFC 8414). No table access. */
export const handler = endpoint('oauth2-metadata', async ({ event }) =>
  json(200, serverMetadata(requestOrigin(event)), { 'cache-control': 'public, max-age=300' }),
);
