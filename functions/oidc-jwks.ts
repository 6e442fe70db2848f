import { endpoint } from '../shared/http/handler.js';
import { json } from '../shared/http/response.js';
import { JWKS_MAX_AGE, jwks } from '../shared/oidc/keys.js';

/**
 * GET /.well-known/jwks.json (RFC 7517 §5): the public signing keys, coming ones included. Reads
 * the key set (Secrets Manager in AWS) once per cold start; no table access.
 */
export const handler = endpoint('oidc-jwks', async () =>
  json(200, await jwks(), { 'cache-control': `public, max-age=${JWKS_MAX_AGE}` }),
);
