import { config } from '../config.js';
import { requestOrigin } from '../http/request.js';
import type { HttpEvent } from '../http/types.js';

/** RFC 8414 §2: authorization server metadata, with the issuer from the configured public URL. */
export function serverMetadata(event: HttpEvent) {
  const issuer = config().publicUrl || requestOrigin(event);
  return {
    issuer,
    authorization_endpoint: `${issuer}/oauth2/authorize`,
    token_endpoint: `${issuer}/oauth2/token`,
    revocation_endpoint: `${issuer}/oauth2/revoke`,
    userinfo_endpoint: `${issuer}/user`,
    response_types_supported: ['code', 'token'],
    response_modes_supported: ['query', 'fragment'],
    grant_types_supported: [
      'authorization_code',
      'implicit',
      'password',
      'client_credentials',
      'refresh_token',
    ],
    code_challenge_methods_supported: ['S256'],
    token_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post'],
    revocation_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post'],
    service_documentation: config().documentationUrl,
  };
}
