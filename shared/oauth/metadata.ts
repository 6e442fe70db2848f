import { config } from '../config.js';
import { GRANT_TYPES, RESPONSE_TYPES, SIGNING_ALGS } from '../model.js';
import { CLAIMS_SUPPORTED, SCOPES_SUPPORTED } from '../oidc/claims.js';

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

const CLIENT_AUTH = ['client_secret_basic', 'client_secret_post'];

/**
 * RFC 8414 §2 authorization server metadata and OpenID Connect Discovery 1.0 §3 provider
 * metadata, for a request that came to `origin`: ONE document served at both well-known paths,
 * so the two can never disagree (RFC 8414 §1 defines its fields as a superset of OIDC's).
 */
export function serverMetadata(origin: string) {
  const issuer = issuerFor(origin);
  return {
    issuer,
    authorization_endpoint: `${issuer}/oauth2/authorize`,
    token_endpoint: `${issuer}/oauth2/token`,
    revocation_endpoint: `${issuer}/oauth2/revoke`,
    introspection_endpoint: `${issuer}/oauth2/introspect`,
    // OIDC Core §5.3. Keyrock's GET /user stays as it is, with its own body.
    userinfo_endpoint: `${issuer}/oauth2/userinfo`,
    jwks_uri: `${issuer}/.well-known/jwks.json`,
    // OpenID Connect RP-Initiated Logout 1.0 §2.1.
    end_session_endpoint: `${issuer}/oauth2/logout`,
    scopes_supported: SCOPES_SUPPORTED,
    response_types_supported: [...RESPONSE_TYPES],
    response_modes_supported: ['query', 'fragment'],
    grant_types_supported: [...GRANT_TYPES],
    subject_types_supported: ['public'],
    id_token_signing_alg_values_supported: [...SIGNING_ALGS],
    claims_supported: CLAIMS_SUPPORTED,
    code_challenge_methods_supported: ['S256'],
    token_endpoint_auth_methods_supported: CLIENT_AUTH,
    revocation_endpoint_auth_methods_supported: CLIENT_AUTH,
    introspection_endpoint_auth_methods_supported: CLIENT_AUTH,
    // OIDC Discovery §3: request_uri_parameter_supported defaults to true; none of them is served.
    claims_parameter_supported: false,
    request_parameter_supported: false,
    request_uri_parameter_supported: false,
    service_documentation: config().documentationUrl,
  };
}
