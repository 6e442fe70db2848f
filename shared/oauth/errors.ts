import { OAuthError } from '../http/oauth-error.js';

/**
 * The OAuth errors this server answers with, named once. Statuses per RFC 6749 §5.2 (token
 * endpoint), RFC 6750 §3.1 (protected resources) and RFC 7009 §2.2.1 (revocation).
 */
export const REALM = 'gatehouse';

export const invalidRequest = (description: string) => new OAuthError('invalid_request', description, 400);

/** RFC 6749 §5.2: 401 with a challenge for the authentication scheme the client may use. */
export const invalidClient = (description: string) =>
  new OAuthError('invalid_client', description, 401, { 'www-authenticate': `Basic realm="${REALM}"` });

export const invalidGrant = (description: string) => new OAuthError('invalid_grant', description, 400);
export const unauthorizedClient = (description: string) =>
  new OAuthError('unauthorized_client', description, 400);
export const unsupportedGrantType = (description: string) =>
  new OAuthError('unsupported_grant_type', description, 400);
export const invalidScope = (description: string) => new OAuthError('invalid_scope', description, 400);

/** RFC 6750 §3: no token at all gets the bare challenge, without an error code. */
export const missingBearer = () =>
  new OAuthError('invalid_request', 'An access token is required.', 401, {
    'www-authenticate': `Bearer realm="${REALM}"`,
  });

/** RFC 6750 §3.1: a missing, expired, revoked or unknown token. */
export const invalidToken = (description: string) =>
  new OAuthError('invalid_token', description, 401, {
    'www-authenticate': `Bearer realm="${REALM}", error="invalid_token"`,
  });

/** RFC 6750 §3.1: a malformed resource request, e.g. the token sent two ways at once. */
export const invalidBearerRequest = (description: string) =>
  new OAuthError('invalid_request', description, 400, {
    'www-authenticate': `Bearer realm="${REALM}", error="invalid_request"`,
  });
