/**
 * Names every layer shares: grant types, HTTP verbs, member and built-in roles, and the shape of
 * an OAuth redirect target. No imports, so the store, the domain, the OAuth layer and the HTTP
 * layer can all depend on it without depending on each other.
 */

/** RFC 6749 §4: the grants an application may enable (the implicit grant is served at /authorize). */
export const GRANT_TYPES = [
  'authorization_code',
  'implicit',
  'password',
  'client_credentials',
  'refresh_token',
] as const;
export type GrantType = (typeof GRANT_TYPES)[number];

/**
 * How an application's access tokens look (a per-application setting): `opaque` random values
 * (the default, Keyrock's own) or `jwt`, RFC 9068 JWT access tokens signed with the OIDC keys.
 */
export const ACCESS_TOKEN_FORMATS = ['opaque', 'jwt'] as const;
export type AccessTokenFormat = (typeof ACCESS_TOKEN_FORMATS)[number];

/**
 * Keyrock's token types an application may allow besides `bearer` (always allowed, the default):
 * `jwt`, access tokens that are HS256 JWTs signed with the application's own `jwt_secret`, and
 * `permanent`, access tokens without expiry. A client asks for one with `scope=jwt` or
 * `scope=permanent`. Not the same thing as `jwt` in ACCESS_TOKEN_FORMATS (RFC 9068, OIDC keys).
 */
export const KEYROCK_TOKEN_TYPES = ['jwt', 'permanent'] as const;
export type KeyrockTokenType = (typeof KEYROCK_TOKEN_TYPES)[number];

/**
 * The authorization endpoint's response types: RFC 6749 §3.1.1 `code` and `token`, and OpenID
 * Connect's implicit flow (OIDC Core §3.2.2.1) `id_token` and `id_token token`.
 */
export const RESPONSE_TYPES = ['code', 'token', 'id_token', 'id_token token'] as const;
export type ResponseType = (typeof RESPONSE_TYPES)[number];

/**
 * JWS algorithms of the signing keys (ID tokens, JWT access tokens): RS256, which every OpenID
 * Connect client must accept (OIDC Core §15.1), and ES256. The first is the default.
 */
export const SIGNING_ALGS = ['RS256', 'ES256'] as const;
export type SigningAlg = (typeof SIGNING_ALGS)[number];

/**
 * The verbs a permission may name: Keyrock's classic four, and PATCH, because a PEP proxy asks
 * with the request's own method and FIWARE's NGSI-v2 updates attributes with PATCH (Keyrock 8
 * takes any action text; an unknown verb here would only ever be Deny).
 */
export const HTTP_VERBS = ['GET', 'PUT', 'POST', 'DELETE', 'PATCH'] as const;
export type HttpVerb = (typeof HTTP_VERBS)[number];

/** A member's role in an organization (Keyrock's organization_roles). */
export const MEMBER_ROLES = ['owner', 'member'] as const;
export type MemberRole = (typeof MEMBER_ROLES)[number];

/** The two roles every application is created with (Keyrock's Provider and Purchaser). */
export type BuiltInRole = 'provider' | 'purchaser';

/** Whom a role is given to in an application. */
export type Grantee = { kind: 'user'; id: number } | { kind: 'org'; id: number };

/**
 * Where an authorization response goes back to (RFC 6749 §4.1.2, §4.2.2): the client's registered
 * redirect URI, in the query for `code` and in the fragment for `token`, with the client's state.
 */
export interface RedirectTarget {
  redirectUri: string;
  mode: 'query' | 'fragment';
  state?: string | undefined;
}

/**
 * How a user signed in, as RFC 8176 names the methods for the ID token's `amr` (OIDC Core §2):
 * `pwd` a password, `otp` a one-time code (an authenticator app's or a recovery code), `mfa`
 * more than one factor. A passkey is always `mfa`: after a password it is the second factor, and
 * alone it must have verified the user (PIN or biometric) on the device that holds the key.
 * RFC 8176 has no value for a WebAuthn credential as such, and `hwk`/`swk` would claim to know
 * whether the key is hardware-bound or synced, which an attestation-free passkey does not say.
 */
export type AuthMethod = 'pwd' | 'otp' | 'mfa';
