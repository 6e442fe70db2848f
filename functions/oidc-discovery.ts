import { endpoint } from '../shared/http/handler.js';
import { requestOrigin } from '../shared/http/request.js';
import { json } from '../shared/http/response.js';
import { serverMetadata } from '../shared/oauth/metadata.js';

/**
 * GET /.well-known/openid-configuration (OpenID Connect Discovery 1.0 §4): the same document as
 * RFC 8414's, from the same function of shared/oauth/metadata.ts. No table access.
 */
export const handler = endpoint('oidc-discovery', async ({ event }) =>
  json(200, serverMetadata(requestOrigin(event)), { 'cache-control': 'public, max-age=300' }),
);
