/**
 * The route table: every endpoint, the function that serves it and what that function may touch.
 * The local server builds its router from this list; the CDK stack builds the API, one Lambda per
 * entry and each function's IAM grants from it. Nothing lists routes twice.
 */
export type TableAccess = 'none' | 'read' | 'write';
export type BucketAccess = 'none' | 'read' | 'write';

/**
 * Who may call a route, applied by the handler factory (shared/http/handler.ts) before the
 * function runs:
 * - `none`: anyone; a function that authenticates a client itself (the token endpoint) says so.
 * - `bearer`: an OAuth access token (RFC 6750 §2.1 header or §2.3 query), read from the table
 *   (an RFC 9068 JWT access token is verified by its signature instead).
 * - `session`: a portal session cookie (401 without), and the session's CSRF token in
 *   `X-CSRF-Token` for every method but GET, HEAD and OPTIONS (403 without).
 * - `optional-session`: the session if the cookie names a live one; its read overlaps the
 *   function's own first read (one round trip, not two).
 * - `keyrock-token`: a Keyrock API token (`POST /v1/auth/tokens`) in `X-Auth-Token`, or in
 *   `Authorization: Bearer` as Keyrock also reads it; the function gets its live user (401 without).
 */
export type Auth = 'none' | 'bearer' | 'session' | 'optional-session' | 'keyrock-token';

export interface Route {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'OPTIONS';
  /** API Gateway path syntax: `{name}` is one path segment. */
  path: string;
  /** File name under functions/ (without .ts) and the Lambda's logical name. */
  fn: string;
  auth: Auth;
  table: TableAccess;
  logos: BucketAccess;
  /**
   * Browser apps on other origins may call it (RFC 6750 tokens never travel in cookies). `true`
   * also derives its OPTIONS preflight route; `simple` is for a GET that browsers send without a
   * preflight (no Authorization or other non-safelisted header, Fetch standard §3.2.2).
   */
  cors?: true | 'simple';
  /**
   * How errors are shown: JSON (`{error, error_description}`) by default; `page` for the
   * authorization endpoint, which a browser navigates to (an HTML page when it asks for HTML);
   * `keyrock` for Keyrock's management API, `{error: {message, code, title}}`.
   */
  errors?: 'json' | 'page' | 'keyrock';
  /** Lambda memory in MB; more memory also buys CPU (bcrypt, sharp). */
  memory?: number;
  timeoutSeconds?: number;
  /** Needs a native module that only has an x86_64 build in our bundle (sharp). */
  x86?: boolean;
  /**
   * Reads the signing key set (shared/oidc/keys.ts): the functions that sign ID tokens or publish
   * the JWKS. In AWS only these may read the Secrets Manager secret holding the private keys.
   */
  signingKeys?: 'read';
  /**
   * Reads the key that encrypts authenticator-app secrets and Keyrock `jwt` secrets
   * (shared/store/at-rest-key.ts): the functions that enrol an app or check its codes, and those
   * that seal, show, sign or verify with an application's jwt secret. In AWS only these may read it.
   */
  atRestKey?: 'read';
  /**
   * Sends mail (shared/mail/): in AWS only these functions may call `ses:SendEmail`, on the
   * configured sender identity and configuration set (infra/grants.ts).
   */
  mail?: 'send';
}

// One line per route; `satisfies` keeps each entry's literal types, so a function's context is
// typed by its own route's `auth` (shared/http/handler.ts).
const declared = [
  {
    method: 'GET',
    path: '/v2/ServiceProviderConfigs',
    fn: 'scim-service-provider-configs',
    auth: 'none',
    table: 'read',
    logos: 'none',
  },
  // Portal API. Every route writes: reading the session slides its expiry.
  {
    method: 'GET',
    path: '/api/session',
    fn: 'api-session-get',
    auth: 'optional-session',
    table: 'write',
    logos: 'none',
  },
  {
    method: 'POST',
    path: '/api/session',
    fn: 'api-session-create',
    auth: 'optional-session',
    table: 'write',
    logos: 'none',
    memory: 1024,
  },
  {
    method: 'DELETE',
    path: '/api/session',
    fn: 'api-session-delete',
    auth: 'session',
    table: 'write',
    logos: 'none',
  },
  {
    method: 'PUT',
    path: '/api/session/acting',
    fn: 'api-session-acting',
    auth: 'session',
    table: 'write',
    logos: 'none',
  },
  // Two-factor sign-in. The second step of a sign-in and a passkey sign-in have no
  // session yet (a ticket from the first step stands for the password); like sign-in they take
  // only application/json. Changing one's factors needs the session, its CSRF token and the password.
  {
    method: 'POST',
    path: '/api/session/passkey',
    fn: 'api-session-passkey',
    auth: 'none',
    table: 'write',
    logos: 'none',
  },
  {
    method: 'POST',
    path: '/api/session/verify',
    fn: 'api-session-verify',
    auth: 'optional-session',
    table: 'write',
    logos: 'none',
    atRestKey: 'read',
  },
  {
    method: 'GET',
    path: '/api/account/two-factor',
    fn: 'api-two-factor-get',
    auth: 'session',
    table: 'write',
    logos: 'none',
  },
  {
    method: 'POST',
    path: '/api/account/two-factor/totp',
    fn: 'api-totp-start',
    auth: 'session',
    table: 'write',
    logos: 'none',
    memory: 1024,
    atRestKey: 'read',
  },
  {
    method: 'POST',
    path: '/api/account/two-factor/totp/confirm',
    fn: 'api-totp-confirm',
    auth: 'session',
    table: 'write',
    logos: 'none',
    atRestKey: 'read',
  },
  {
    method: 'DELETE',
    path: '/api/account/two-factor/totp',
    fn: 'api-totp-delete',
    auth: 'session',
    table: 'write',
    logos: 'none',
    memory: 1024,
  },
  {
    method: 'POST',
    path: '/api/account/two-factor/recovery-codes',
    fn: 'api-recovery-codes-create',
    auth: 'session',
    table: 'write',
    logos: 'none',
    memory: 1024,
  },
  {
    method: 'POST',
    path: '/api/account/two-factor/passkeys/options',
    fn: 'api-passkey-options',
    auth: 'session',
    table: 'write',
    logos: 'none',
    memory: 1024,
  },
  {
    method: 'POST',
    path: '/api/account/two-factor/passkeys',
    fn: 'api-passkeys-create',
    auth: 'session',
    table: 'write',
    logos: 'none',
  },
  {
    method: 'DELETE',
    path: '/api/account/two-factor/passkeys/{id}',
    fn: 'api-passkey-delete',
    auth: 'session',
    table: 'write',
    logos: 'none',
    memory: 1024,
  },
  // Accounts: e-mail verification and password reset. Public (no session to protect
  // with CSRF); the "send me a link" routes answer the same for every address.
  {
    method: 'POST',
    path: '/api/email-verification',
    fn: 'api-email-verification-send',
    auth: 'none',
    table: 'write',
    logos: 'none',
    mail: 'send',
  },
  {
    method: 'POST',
    path: '/api/email-verification/confirm',
    fn: 'api-email-verification-confirm',
    auth: 'none',
    table: 'write',
    logos: 'none',
  },
  {
    method: 'POST',
    path: '/api/password-reset',
    fn: 'api-password-reset-send',
    auth: 'none',
    table: 'write',
    logos: 'none',
    mail: 'send',
  },
  {
    method: 'POST',
    path: '/api/password-reset/confirm',
    fn: 'api-password-reset-confirm',
    auth: 'none',
    table: 'write',
    logos: 'none',
    memory: 1024,
  },
  // Account settings: one's own name, password, e-mail, sessions, and deleting the
  // account. Every change needs the session and its CSRF token; password, e-mail and deletion
  // also the password again (bcrypt: more memory buys CPU). Following the e-mail change link is
  // public, like the verification link: the link's token is what proves the request.
  {
    method: 'GET',
    path: '/api/account',
    fn: 'api-account-get',
    auth: 'session',
    table: 'write',
    logos: 'none',
  },
  {
    method: 'PATCH',
    path: '/api/account',
    fn: 'api-account-update',
    auth: 'session',
    table: 'write',
    logos: 'none',
  },
  {
    method: 'DELETE',
    path: '/api/account',
    fn: 'api-account-delete',
    auth: 'session',
    table: 'write',
    logos: 'none',
    memory: 1024,
  },
  {
    method: 'PUT',
    path: '/api/account/password',
    fn: 'api-account-password',
    auth: 'session',
    table: 'write',
    logos: 'none',
    memory: 1024,
  },
  {
    method: 'POST',
    path: '/api/account/email',
    fn: 'api-account-email',
    auth: 'session',
    table: 'write',
    logos: 'none',
    memory: 1024,
    mail: 'send',
  },
  {
    method: 'POST',
    path: '/api/account/email/confirm',
    fn: 'api-account-email-confirm',
    auth: 'none',
    table: 'write',
    logos: 'none',
  },
  {
    method: 'DELETE',
    path: '/api/account/sessions',
    fn: 'api-account-sessions-delete',
    auth: 'session',
    table: 'write',
    logos: 'none',
  },
  {
    method: 'DELETE',
    path: '/api/account/sessions/{id}',
    fn: 'api-account-session-delete',
    auth: 'session',
    table: 'write',
    logos: 'none',
  },
  // The administrator page: users with search and paging, disabling and enabling,
  // the administrator flag, the SCIM totals. Administrators only: anyone else gets 403.
  {
    method: 'GET',
    path: '/api/admin/users',
    fn: 'api-admin-users-list',
    auth: 'session',
    table: 'write',
    logos: 'none',
  },
  {
    method: 'PATCH',
    path: '/api/admin/users/{id}',
    fn: 'api-admin-user-update',
    auth: 'session',
    table: 'write',
    logos: 'none',
  },
  {
    method: 'POST',
    path: '/api/users',
    fn: 'api-users-create',
    auth: 'none',
    table: 'write',
    logos: 'none',
    memory: 1024,
    mail: 'send',
  },
  {
    method: 'GET',
    path: '/api/applications',
    fn: 'api-applications-list',
    auth: 'session',
    table: 'write',
    logos: 'none',
  },
  {
    method: 'POST',
    path: '/api/applications',
    fn: 'api-applications-create',
    auth: 'session',
    table: 'write',
    logos: 'none',
  },
  {
    method: 'GET',
    path: '/api/applications/{id}',
    fn: 'api-application-get',
    auth: 'session',
    table: 'write',
    logos: 'none',
    atRestKey: 'read',
  },
  {
    method: 'PUT',
    path: '/api/applications/{id}',
    fn: 'api-application-update',
    auth: 'session',
    table: 'write',
    logos: 'none',
    atRestKey: 'read',
  },
  {
    method: 'DELETE',
    path: '/api/applications/{id}',
    fn: 'api-application-delete',
    auth: 'session',
    table: 'write',
    logos: 'none',
  },
  {
    method: 'POST',
    path: '/api/applications/{id}/secret',
    fn: 'api-application-secret',
    auth: 'session',
    table: 'write',
    logos: 'none',
  },
  {
    method: 'POST',
    path: '/api/applications/{id}/logo',
    fn: 'api-application-logo',
    auth: 'session',
    table: 'write',
    logos: 'write',
    memory: 1024,
    x86: true,
  },
  {
    method: 'POST',
    path: '/api/applications/{id}/roles',
    fn: 'api-roles-create',
    auth: 'session',
    table: 'write',
    logos: 'none',
  },
  {
    method: 'DELETE',
    path: '/api/applications/{id}/roles/{roleId}',
    fn: 'api-role-delete',
    auth: 'session',
    table: 'write',
    logos: 'none',
  },
  {
    method: 'POST',
    path: '/api/applications/{id}/permissions',
    fn: 'api-permissions-create',
    auth: 'session',
    table: 'write',
    logos: 'none',
  },
  {
    method: 'DELETE',
    path: '/api/applications/{id}/permissions/{permissionId}',
    fn: 'api-permission-delete',
    auth: 'session',
    table: 'write',
    logos: 'none',
  },
  {
    method: 'PUT',
    path: '/api/applications/{id}/roles/{roleId}/permissions/{permissionId}',
    fn: 'api-role-permission-set',
    auth: 'session',
    table: 'write',
    logos: 'none',
  },
  {
    method: 'POST',
    path: '/api/applications/{id}/authorizations',
    fn: 'api-authorizations-create',
    auth: 'session',
    table: 'write',
    logos: 'none',
  },
  {
    method: 'PUT',
    path: '/api/applications/{id}/authorizations/{kind}/{granteeId}',
    fn: 'api-authorization-update',
    auth: 'session',
    table: 'write',
    logos: 'none',
  },
  {
    method: 'DELETE',
    path: '/api/applications/{id}/authorizations/{kind}/{granteeId}',
    fn: 'api-authorization-delete',
    auth: 'session',
    table: 'write',
    logos: 'none',
  },
  // PEP proxy, IoT agents and trusted applications: the /v1 domain functions, the portal's rules.
  {
    method: 'GET',
    path: '/api/applications/{id}/agents',
    fn: 'api-agents-list',
    auth: 'session',
    table: 'write',
    logos: 'none',
  },
  {
    method: 'POST',
    path: '/api/applications/{id}/pep-proxy',
    fn: 'api-pep-proxy-create',
    auth: 'session',
    table: 'write',
    logos: 'none',
  },
  {
    method: 'POST',
    path: '/api/applications/{id}/pep-proxy/password',
    fn: 'api-pep-proxy-reset',
    auth: 'session',
    table: 'write',
    logos: 'none',
  },
  {
    method: 'DELETE',
    path: '/api/applications/{id}/pep-proxy',
    fn: 'api-pep-proxy-delete',
    auth: 'session',
    table: 'write',
    logos: 'none',
  },
  {
    method: 'POST',
    path: '/api/applications/{id}/iot-agents',
    fn: 'api-iot-agents-create',
    auth: 'session',
    table: 'write',
    logos: 'none',
  },
  {
    method: 'POST',
    path: '/api/applications/{id}/iot-agents/{agentId}/password',
    fn: 'api-iot-agent-reset',
    auth: 'session',
    table: 'write',
    logos: 'none',
  },
  {
    method: 'DELETE',
    path: '/api/applications/{id}/iot-agents/{agentId}',
    fn: 'api-iot-agent-delete',
    auth: 'session',
    table: 'write',
    logos: 'none',
  },
  {
    method: 'GET',
    path: '/api/applications/{id}/trusted-applications',
    fn: 'api-trusted-applications-list',
    auth: 'session',
    table: 'write',
    logos: 'none',
  },
  {
    method: 'POST',
    path: '/api/applications/{id}/trusted-applications',
    fn: 'api-trusted-applications-add',
    auth: 'session',
    table: 'write',
    logos: 'none',
  },
  {
    method: 'DELETE',
    path: '/api/applications/{id}/trusted-applications/{clientId}',
    fn: 'api-trusted-application-delete',
    auth: 'session',
    table: 'write',
    logos: 'none',
  },
  {
    method: 'GET',
    path: '/api/organizations',
    fn: 'api-organizations-list',
    auth: 'session',
    table: 'write',
    logos: 'none',
  },
  {
    method: 'POST',
    path: '/api/organizations',
    fn: 'api-organizations-create',
    auth: 'session',
    table: 'write',
    logos: 'none',
  },
  {
    method: 'GET',
    path: '/api/organizations/{id}',
    fn: 'api-organization-get',
    auth: 'session',
    table: 'write',
    logos: 'none',
  },
  {
    method: 'POST',
    path: '/api/organizations/{id}/members',
    fn: 'api-members-create',
    auth: 'session',
    table: 'write',
    logos: 'none',
  },
  {
    method: 'PUT',
    path: '/api/organizations/{id}/members/{userId}',
    fn: 'api-member-update',
    auth: 'session',
    table: 'write',
    logos: 'none',
  },
  {
    method: 'DELETE',
    path: '/api/organizations/{id}/members/{userId}',
    fn: 'api-member-delete',
    auth: 'session',
    table: 'write',
    logos: 'none',
  },
  // OAuth 2.0 and the Keyrock lookups. The token and revocation endpoints authenticate the client
  // themselves (RFC 6749 §2.3), in the same read as the grant's items.
  {
    method: 'GET',
    path: '/oauth2/authorize',
    fn: 'oauth2-authorize',
    auth: 'optional-session',
    errors: 'page',
    table: 'write',
    logos: 'none',
    signingKeys: 'read',
    atRestKey: 'read',
  },
  {
    method: 'POST',
    path: '/oauth2/authorize',
    fn: 'oauth2-authorize-decision',
    auth: 'optional-session',
    errors: 'page',
    table: 'write',
    logos: 'none',
    signingKeys: 'read',
    atRestKey: 'read',
  },
  {
    method: 'POST',
    path: '/oauth2/token',
    fn: 'oauth2-token',
    auth: 'none',
    table: 'write',
    logos: 'none',
    cors: true,
    memory: 1024,
    signingKeys: 'read',
    atRestKey: 'read',
  },
  {
    method: 'POST',
    path: '/oauth2/revoke',
    fn: 'oauth2-revoke',
    auth: 'none',
    table: 'write',
    logos: 'none',
    cors: true,
  },
  {
    method: 'GET',
    path: '/user',
    fn: 'user-info',
    auth: 'bearer',
    table: 'read',
    logos: 'none',
    cors: true,
    // Keyrock `jwt` tokens are verified with the application's sealed secret.
    atRestKey: 'read',
  },
  {
    method: 'GET',
    path: '/users/{id}',
    fn: 'users-get',
    auth: 'bearer',
    table: 'read',
    logos: 'none',
    cors: true,
  },
  {
    method: 'GET',
    path: '/applications.json',
    fn: 'applications-json',
    auth: 'bearer',
    table: 'read',
    logos: 'none',
    cors: true,
  },
  {
    method: 'GET',
    path: '/.well-known/oauth-authorization-server',
    fn: 'oauth2-metadata',
    auth: 'none',
    table: 'none',
    logos: 'none',
    cors: 'simple',
  },
  // OpenID Connect: discovery (the same document), the public keys, UserInfo (GET with the
  // bearer token, POST also with it in the body, RFC 6750 §2.2) and RFC 7662 introspection.
  {
    method: 'GET',
    path: '/.well-known/openid-configuration',
    fn: 'oidc-discovery',
    auth: 'none',
    table: 'none',
    logos: 'none',
    cors: 'simple',
  },
  {
    method: 'GET',
    path: '/.well-known/jwks.json',
    fn: 'oidc-jwks',
    auth: 'none',
    table: 'none',
    logos: 'none',
    cors: 'simple',
    signingKeys: 'read',
  },
  {
    method: 'GET',
    path: '/oauth2/userinfo',
    fn: 'oidc-userinfo',
    auth: 'bearer',
    table: 'read',
    logos: 'none',
    cors: true,
  },
  {
    method: 'POST',
    path: '/oauth2/userinfo',
    fn: 'oidc-userinfo-post',
    auth: 'none',
    table: 'read',
    logos: 'none',
    cors: true,
  },
  {
    method: 'POST',
    path: '/oauth2/introspect',
    fn: 'oauth2-introspect',
    auth: 'none',
    table: 'read',
    logos: 'none',
  },
  // RP-Initiated Logout 1.0 §2: GET and POST, both ending the portal session (hence `write`).
  {
    method: 'GET',
    path: '/oauth2/logout',
    fn: 'oauth2-logout',
    auth: 'optional-session',
    errors: 'page',
    table: 'write',
    logos: 'none',
  },
  {
    method: 'POST',
    path: '/oauth2/logout',
    fn: 'oauth2-logout-post',
    auth: 'optional-session',
    errors: 'page',
    table: 'write',
    logos: 'none',
  },
  // Keyrock's management API (/v1) and its version document. Every /v1 route but the token
  // sign-in needs an API token (X-Auth-Token) and answers errors in Keyrock's shape.
  {
    method: 'POST',
    path: '/v1/auth/tokens',
    fn: 'v1-auth-tokens-create',
    auth: 'none',
    errors: 'keyrock',
    table: 'write',
    logos: 'none',
    memory: 1024,
    atRestKey: 'read',
  },
  {
    method: 'GET',
    path: '/v1/auth/tokens',
    fn: 'v1-auth-tokens-get',
    auth: 'keyrock-token',
    errors: 'keyrock',
    table: 'read',
    logos: 'none',
  },
  {
    method: 'DELETE',
    path: '/v1/auth/tokens',
    fn: 'v1-auth-tokens-delete',
    auth: 'keyrock-token',
    errors: 'keyrock',
    table: 'write',
    logos: 'none',
  },
  {
    method: 'GET',
    path: '/v1/users',
    fn: 'v1-users-list',
    auth: 'keyrock-token',
    errors: 'keyrock',
    table: 'read',
    logos: 'none',
  },
  {
    method: 'POST',
    path: '/v1/users',
    fn: 'v1-users-create',
    auth: 'keyrock-token',
    errors: 'keyrock',
    table: 'write',
    logos: 'none',
    memory: 1024,
  },
  {
    method: 'GET',
    path: '/v1/users/{userId}',
    fn: 'v1-user-get',
    auth: 'keyrock-token',
    errors: 'keyrock',
    table: 'read',
    logos: 'none',
  },
  {
    method: 'PATCH',
    path: '/v1/users/{userId}',
    fn: 'v1-user-update',
    auth: 'keyrock-token',
    errors: 'keyrock',
    table: 'write',
    logos: 'none',
    memory: 1024,
  },
  {
    method: 'DELETE',
    path: '/v1/users/{userId}',
    fn: 'v1-user-delete',
    auth: 'keyrock-token',
    errors: 'keyrock',
    table: 'write',
    logos: 'none',
  },
  {
    method: 'GET',
    path: '/v1/service_providers/configs',
    fn: 'v1-service-providers-configs',
    auth: 'keyrock-token',
    errors: 'keyrock',
    table: 'read',
    logos: 'none',
  },
  // Keyrock /v1 applications, their roles, permissions and role assignments (to permissions,
  // users, organizations); the application id in paths is the OAuth client id. Reads need only
  // read access.
  {
    method: 'GET',
    path: '/v1/applications',
    fn: 'v1-applications-list',
    auth: 'keyrock-token',
    errors: 'keyrock',
    table: 'read',
    logos: 'none',
  },
  {
    method: 'POST',
    path: '/v1/applications',
    fn: 'v1-applications-create',
    auth: 'keyrock-token',
    errors: 'keyrock',
    table: 'write',
    logos: 'none',
    atRestKey: 'read',
  },
  {
    method: 'GET',
    path: '/v1/applications/{applicationId}',
    fn: 'v1-application-get',
    auth: 'keyrock-token',
    errors: 'keyrock',
    table: 'read',
    logos: 'none',
    atRestKey: 'read',
  },
  {
    method: 'PATCH',
    path: '/v1/applications/{applicationId}',
    fn: 'v1-application-update',
    auth: 'keyrock-token',
    errors: 'keyrock',
    table: 'write',
    logos: 'none',
    atRestKey: 'read',
  },
  {
    method: 'DELETE',
    path: '/v1/applications/{applicationId}',
    fn: 'v1-application-delete',
    auth: 'keyrock-token',
    errors: 'keyrock',
    table: 'write',
    logos: 'none',
  },
  {
    method: 'GET',
    path: '/v1/applications/{applicationId}/roles',
    fn: 'v1-roles-list',
    auth: 'keyrock-token',
    errors: 'keyrock',
    table: 'read',
    logos: 'none',
  },
  {
    method: 'POST',
    path: '/v1/applications/{applicationId}/roles',
    fn: 'v1-roles-create',
    auth: 'keyrock-token',
    errors: 'keyrock',
    table: 'write',
    logos: 'none',
  },
  {
    method: 'GET',
    path: '/v1/applications/{applicationId}/roles/{roleId}',
    fn: 'v1-role-get',
    auth: 'keyrock-token',
    errors: 'keyrock',
    table: 'read',
    logos: 'none',
  },
  {
    method: 'PATCH',
    path: '/v1/applications/{applicationId}/roles/{roleId}',
    fn: 'v1-role-update',
    auth: 'keyrock-token',
    errors: 'keyrock',
    table: 'write',
    logos: 'none',
  },
  {
    method: 'DELETE',
    path: '/v1/applications/{applicationId}/roles/{roleId}',
    fn: 'v1-role-delete',
    auth: 'keyrock-token',
    errors: 'keyrock',
    table: 'write',
    logos: 'none',
  },
  {
    method: 'GET',
    path: '/v1/applications/{applicationId}/permissions',
    fn: 'v1-permissions-list',
    auth: 'keyrock-token',
    errors: 'keyrock',
    table: 'read',
    logos: 'none',
  },
  {
    method: 'POST',
    path: '/v1/applications/{applicationId}/permissions',
    fn: 'v1-permissions-create',
    auth: 'keyrock-token',
    errors: 'keyrock',
    table: 'write',
    logos: 'none',
  },
  {
    method: 'GET',
    path: '/v1/applications/{applicationId}/permissions/{permissionId}',
    fn: 'v1-permission-get',
    auth: 'keyrock-token',
    errors: 'keyrock',
    table: 'read',
    logos: 'none',
  },
  {
    method: 'PATCH',
    path: '/v1/applications/{applicationId}/permissions/{permissionId}',
    fn: 'v1-permission-update',
    auth: 'keyrock-token',
    errors: 'keyrock',
    table: 'write',
    logos: 'none',
  },
  {
    method: 'DELETE',
    path: '/v1/applications/{applicationId}/permissions/{permissionId}',
    fn: 'v1-permission-delete',
    auth: 'keyrock-token',
    errors: 'keyrock',
    table: 'write',
    logos: 'none',
  },
  {
    method: 'GET',
    path: '/v1/applications/{applicationId}/roles/{roleId}/permissions',
    fn: 'v1-role-permissions-list',
    auth: 'keyrock-token',
    errors: 'keyrock',
    table: 'read',
    logos: 'none',
  },
  {
    method: 'PUT',
    path: '/v1/applications/{applicationId}/roles/{roleId}/permissions/{permissionId}',
    fn: 'v1-role-permission-assign',
    auth: 'keyrock-token',
    errors: 'keyrock',
    table: 'write',
    logos: 'none',
  },
  {
    method: 'POST',
    path: '/v1/applications/{applicationId}/roles/{roleId}/permissions/{permissionId}',
    fn: 'v1-role-permission-assign',
    auth: 'keyrock-token',
    errors: 'keyrock',
    table: 'write',
    logos: 'none',
  },
  {
    method: 'DELETE',
    path: '/v1/applications/{applicationId}/roles/{roleId}/permissions/{permissionId}',
    fn: 'v1-role-permission-delete',
    auth: 'keyrock-token',
    errors: 'keyrock',
    table: 'write',
    logos: 'none',
  },
  {
    method: 'GET',
    path: '/v1/applications/{applicationId}/users',
    fn: 'v1-application-users',
    auth: 'keyrock-token',
    errors: 'keyrock',
    table: 'read',
    logos: 'none',
  },
  {
    method: 'GET',
    path: '/v1/applications/{applicationId}/users/{userId}/roles',
    fn: 'v1-application-user-roles',
    auth: 'keyrock-token',
    errors: 'keyrock',
    table: 'read',
    logos: 'none',
  },
  {
    method: 'PUT',
    path: '/v1/applications/{applicationId}/users/{userId}/roles/{roleId}',
    fn: 'v1-application-user-role-assign',
    auth: 'keyrock-token',
    errors: 'keyrock',
    table: 'write',
    logos: 'none',
  },
  {
    method: 'POST',
    path: '/v1/applications/{applicationId}/users/{userId}/roles/{roleId}',
    fn: 'v1-application-user-role-assign',
    auth: 'keyrock-token',
    errors: 'keyrock',
    table: 'write',
    logos: 'none',
  },
  {
    method: 'DELETE',
    path: '/v1/applications/{applicationId}/users/{userId}/roles/{roleId}',
    fn: 'v1-application-user-role-delete',
    auth: 'keyrock-token',
    errors: 'keyrock',
    table: 'write',
    logos: 'none',
  },
  {
    method: 'GET',
    path: '/v1/applications/{applicationId}/organizations',
    fn: 'v1-application-organizations',
    auth: 'keyrock-token',
    errors: 'keyrock',
    table: 'read',
    logos: 'none',
  },
  {
    method: 'GET',
    path: '/v1/applications/{applicationId}/organizations/{organizationId}/roles',
    fn: 'v1-application-organization-roles',
    auth: 'keyrock-token',
    errors: 'keyrock',
    table: 'read',
    logos: 'none',
  },
  {
    method: 'PUT',
    path: '/v1/applications/{applicationId}/organizations/{organizationId}/roles/{roleId}/organization_roles/{organizationRoleId}',
    fn: 'v1-application-organization-role-assign',
    auth: 'keyrock-token',
    errors: 'keyrock',
    table: 'write',
    logos: 'none',
  },
  {
    method: 'POST',
    path: '/v1/applications/{applicationId}/organizations/{organizationId}/roles/{roleId}/organization_roles/{organizationRoleId}',
    fn: 'v1-application-organization-role-assign',
    auth: 'keyrock-token',
    errors: 'keyrock',
    table: 'write',
    logos: 'none',
  },
  {
    method: 'DELETE',
    path: '/v1/applications/{applicationId}/organizations/{organizationId}/roles/{roleId}/organization_roles/{organizationRoleId}',
    fn: 'v1-application-organization-role-delete',
    auth: 'keyrock-token',
    errors: 'keyrock',
    table: 'write',
    logos: 'none',
  },
  // Keyrock /v1 PEP proxy (one per application), IoT agents and trusted applications.
  {
    method: 'GET',
    path: '/v1/applications/{applicationId}/pep_proxies',
    fn: 'v1-pep-proxy-get',
    auth: 'keyrock-token',
    errors: 'keyrock',
    table: 'read',
    logos: 'none',
  },
  {
    method: 'POST',
    path: '/v1/applications/{applicationId}/pep_proxies',
    fn: 'v1-pep-proxy-create',
    auth: 'keyrock-token',
    errors: 'keyrock',
    table: 'write',
    logos: 'none',
  },
  {
    method: 'PATCH',
    path: '/v1/applications/{applicationId}/pep_proxies',
    fn: 'v1-pep-proxy-reset',
    auth: 'keyrock-token',
    errors: 'keyrock',
    table: 'write',
    logos: 'none',
  },
  {
    method: 'DELETE',
    path: '/v1/applications/{applicationId}/pep_proxies',
    fn: 'v1-pep-proxy-delete',
    auth: 'keyrock-token',
    errors: 'keyrock',
    table: 'write',
    logos: 'none',
  },
  {
    method: 'GET',
    path: '/v1/applications/{applicationId}/iot_agents',
    fn: 'v1-iot-agents-list',
    auth: 'keyrock-token',
    errors: 'keyrock',
    table: 'read',
    logos: 'none',
  },
  {
    method: 'POST',
    path: '/v1/applications/{applicationId}/iot_agents',
    fn: 'v1-iot-agents-create',
    auth: 'keyrock-token',
    errors: 'keyrock',
    table: 'write',
    logos: 'none',
  },
  {
    method: 'GET',
    path: '/v1/applications/{applicationId}/iot_agents/{iotAgentId}',
    fn: 'v1-iot-agent-get',
    auth: 'keyrock-token',
    errors: 'keyrock',
    table: 'read',
    logos: 'none',
  },
  {
    method: 'PATCH',
    path: '/v1/applications/{applicationId}/iot_agents/{iotAgentId}',
    fn: 'v1-iot-agent-reset',
    auth: 'keyrock-token',
    errors: 'keyrock',
    table: 'write',
    logos: 'none',
  },
  {
    method: 'DELETE',
    path: '/v1/applications/{applicationId}/iot_agents/{iotAgentId}',
    fn: 'v1-iot-agent-delete',
    auth: 'keyrock-token',
    errors: 'keyrock',
    table: 'write',
    logos: 'none',
  },
  {
    method: 'GET',
    path: '/v1/applications/{applicationId}/trusted_applications',
    fn: 'v1-trusted-applications-list',
    auth: 'keyrock-token',
    errors: 'keyrock',
    table: 'read',
    logos: 'none',
  },
  {
    method: 'PUT',
    path: '/v1/applications/{applicationId}/trusted_applications/{trustedApplicationId}',
    fn: 'v1-trusted-application-assign',
    auth: 'keyrock-token',
    errors: 'keyrock',
    table: 'write',
    logos: 'none',
  },
  {
    method: 'POST',
    path: '/v1/applications/{applicationId}/trusted_applications/{trustedApplicationId}',
    fn: 'v1-trusted-application-assign',
    auth: 'keyrock-token',
    errors: 'keyrock',
    table: 'write',
    logos: 'none',
  },
  {
    method: 'DELETE',
    path: '/v1/applications/{applicationId}/trusted_applications/{trustedApplicationId}',
    fn: 'v1-trusted-application-delete',
    auth: 'keyrock-token',
    errors: 'keyrock',
    table: 'write',
    logos: 'none',
  },
  // Keyrock /v1 organizations and their members (owner, member). Reads need only read access.
  {
    method: 'GET',
    path: '/v1/organizations',
    fn: 'v1-organizations-list',
    auth: 'keyrock-token',
    errors: 'keyrock',
    table: 'read',
    logos: 'none',
  },
  {
    method: 'POST',
    path: '/v1/organizations',
    fn: 'v1-organizations-create',
    auth: 'keyrock-token',
    errors: 'keyrock',
    table: 'write',
    logos: 'none',
  },
  {
    method: 'GET',
    path: '/v1/organizations/{organizationId}',
    fn: 'v1-organization-get',
    auth: 'keyrock-token',
    errors: 'keyrock',
    table: 'read',
    logos: 'none',
  },
  {
    method: 'PATCH',
    path: '/v1/organizations/{organizationId}',
    fn: 'v1-organization-update',
    auth: 'keyrock-token',
    errors: 'keyrock',
    table: 'write',
    logos: 'none',
  },
  {
    method: 'DELETE',
    path: '/v1/organizations/{organizationId}',
    fn: 'v1-organization-delete',
    auth: 'keyrock-token',
    errors: 'keyrock',
    table: 'write',
    logos: 'none',
  },
  {
    method: 'GET',
    path: '/v1/organizations/{organizationId}/users',
    fn: 'v1-organization-users',
    auth: 'keyrock-token',
    errors: 'keyrock',
    table: 'read',
    logos: 'none',
  },
  {
    method: 'GET',
    path: '/v1/organizations/{organizationId}/users/{userId}/organization_roles',
    fn: 'v1-organization-user-roles',
    auth: 'keyrock-token',
    errors: 'keyrock',
    table: 'read',
    logos: 'none',
  },
  {
    method: 'GET',
    path: '/v1/organizations/{organizationId}/users/{userId}/organization_roles/{role}',
    fn: 'v1-organization-role-get',
    auth: 'keyrock-token',
    errors: 'keyrock',
    table: 'read',
    logos: 'none',
  },
  {
    method: 'PUT',
    path: '/v1/organizations/{organizationId}/users/{userId}/organization_roles/{role}',
    fn: 'v1-organization-role-assign',
    auth: 'keyrock-token',
    errors: 'keyrock',
    table: 'write',
    logos: 'none',
  },
  {
    method: 'POST',
    path: '/v1/organizations/{organizationId}/users/{userId}/organization_roles/{role}',
    fn: 'v1-organization-role-assign',
    auth: 'keyrock-token',
    errors: 'keyrock',
    table: 'write',
    logos: 'none',
  },
  {
    method: 'DELETE',
    path: '/v1/organizations/{organizationId}/users/{userId}/organization_roles/{role}',
    fn: 'v1-organization-role-delete',
    auth: 'keyrock-token',
    errors: 'keyrock',
    table: 'write',
    logos: 'none',
  },
  { method: 'GET', path: '/version', fn: 'version', auth: 'none', table: 'none', logos: 'none' },
] as const satisfies readonly Route[];

/** The function that answers every CORS preflight. */
export const PREFLIGHT_FN = 'cors-preflight';

/** The preflight route (Fetch standard) of every path that has a CORS-enabled route. */
function preflights(list: readonly Route[]): Route[] {
  const paths = [...new Set(list.filter((r) => r.cors === true).map((r) => r.path))];
  return paths.map((path) => ({
    method: 'OPTIONS',
    path,
    fn: PREFLIGHT_FN,
    auth: 'none',
    table: 'none',
    logos: 'none',
    cors: true,
  }));
}

/**
 * Keyrock serves its whole /v1 API on /v3 as well, for clients of its Keystone-era API; the PEP
 * proxy signs in at POST /v3/auth/tokens (lib/pdp/keyrock.js). These paths are served by the /v1
 * route's own function.
 */
export const V3_ALIASED = ['/v1/auth/tokens'] as const;

function v3Aliases(list: readonly Route[]): Route[] {
  return list
    .filter((r) => (V3_ALIASED as readonly string[]).includes(r.path))
    .map((r) => ({ ...r, path: `/v3${r.path.slice('/v1'.length)}` }));
}

/** The path a route answers for: a /v3 alias is its /v1 route's. */
export const canonicalPath = (path: string) =>
  path.startsWith('/v3/') && (V3_ALIASED as readonly string[]).includes(`/v1${path.slice(3)}`)
    ? `/v1${path.slice(3)}`
    : path;

/** Every route served: the declared ones, their /v3 aliases and their derived preflights. */
export const routes: readonly Route[] = [...declared, ...v3Aliases(declared), ...preflights(declared)];

/** A function's name, for the handler factory: only names the route table declares. */
export type RouteFn = (typeof declared)[number]['fn'] | typeof PREFLIGHT_FN;
/** The declared route a function serves (its literal type, for the function's context). */
export type RouteOf<F extends RouteFn> = F extends typeof PREFLIGHT_FN
  ? { auth: 'none' }
  : Extract<(typeof declared)[number], { fn: F }>;

/** The routes a function serves: one for every function but the preflight. */
export function routesOf(fn: string): Route[] {
  return routes.filter((r) => r.fn === fn);
}

/** The methods the route table serves at a path with CORS enabled, for a preflight's answer. */
export function corsMethods(path: string): string[] {
  const parts = path.split('/');
  return routes
    .filter((r) => r.cors && r.method !== 'OPTIONS')
    .filter((r) => {
      const segs = r.path.split('/');
      return segs.length === parts.length && segs.every((s, i) => s.startsWith('{') || s === parts[i]);
    })
    .map((r) => r.method);
}

/** Splits a route path into literal segments and `{param}` segments once, for matching. */
export interface CompiledRoute extends Route {
  segments: { literal?: string; param?: string }[];
}

export function compileRoutes(list: readonly Route[] = routes): CompiledRoute[] {
  return list.map((route) => ({
    ...route,
    segments: route.path
      .split('/')
      .slice(1)
      .map((s) => (s.startsWith('{') && s.endsWith('}') ? { param: s.slice(1, -1) } : { literal: s })),
  }));
}

/** Finds the route for a method and path, with its path parameters (literal segments win). */
export function matchRoute(
  compiled: CompiledRoute[],
  method: string,
  path: string,
): { route: CompiledRoute; params: Record<string, string> } | { allowed: string[] } | undefined {
  const parts = path.split('/').slice(1);
  const allowed: string[] = [];
  let best: { route: CompiledRoute; params: Record<string, string>; literals: number } | undefined;
  for (const route of compiled) {
    if (route.segments.length !== parts.length) continue;
    const params: Record<string, string> = {};
    let literals = 0;
    let ok = true;
    for (let i = 0; i < parts.length && ok; i++) {
      const seg = route.segments[i]!;
      const part = parts[i]!;
      if (seg.literal !== undefined) {
        ok = seg.literal === part;
        literals++;
      } else if (part === '') ok = false;
      else {
        try {
          params[seg.param!] = decodeURIComponent(part);
        } catch {
          ok = false;
        }
      }
    }
    if (!ok) continue;
    if (route.method !== method) {
      allowed.push(route.method);
      continue;
    }
    if (!best || literals > best.literals) best = { route, params, literals };
  }
  if (best) return { route: best.route, params: best.params };
  return allowed.length > 0 ? { allowed } : undefined;
}
