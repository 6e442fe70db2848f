import { config } from '../config.js';
import { GRANT_TYPES } from '../model.js';

const LOOPBACK = /^(localhost|127\.0\.0\.1|\[::1\])(:\d+)?$/;

/**
 * The issuer: the configured public URL, or the request's origin when none is set. A local run
 * (`npm start` publishes http://localhost:PORT) is also reached as 127.0.0.1:PORT; RFC 8414 §3.3
 * clients require the issuer to equal the URL they discovered from, so on loopback the origin
 * the caller used wins.
 */
export function issuerFor(origin: string): string {
  const configured = config().publicUrl;
  if (!configured) return origin;
  const host = (url: string) => url.replace(/^https?:\/\//, '');
  if (LOOPBACK.test(host(configured)) && LOOPBACK.test(host(origin))) return origin;
  return configured;
}

/** RFC 8414 §2: authorization server metadata, for a request that came to `origin`. */
export function serverMetadata(origin: string) {
  const issuer = issuerFor(origin);
  return {
    issuer,
    authorization_endpoint: `${issuer}/oauth2/authorize`,
    token_endpoint: `${issuer}/oauth2/token`,
    revocation_endpoint: `${issuer}/oauth2/revoke`,
    userinfo_endpoint: `${issuer}/user`,
    response_types_supported: ['code', 'token'],
    response_modes_supported: ['query', 'fragment'],
    grant_types_supported: [...GRANT_TYPES],
    code_challenge_methods_supported: ['S256'],
    token_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post'],
    revocation_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post'],
    service_documentation: config().documentationUrl,
  };
}
