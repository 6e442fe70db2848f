/**
 * The only place that builds partition and sort keys. One table, generic key attributes
 * (PK, SK, GSI1PK, GSI1SK) and a TTL attribute `expiresAt` (epoch seconds).
 *
 * Access patterns (docs/data-model.md explains each with its round trips):
 *  1. Next id for users, organizations, actors, applications, roles, permissions  UpdateItem COUNTER/IDS (ADD)
 *  2. Totals for SCIM                                        GetItem  COUNTER/STATS
 *  3. User by id, with memberships, authorizations, consents Query    PK=USER#<id>
 *  4. User login by email (unique, case-insensitive)         GetItem  LOGIN#<email>/LOGIN
 *  5. User by nickName (unique, case-insensitive)            GetItem  NICK#<nick>/NICK
 *  6. Actor (user or organization) by actorId                GetItem  ACTOR#<actorId>/ACTOR
 *  7. Organization by id                                     GetItem  ORG#<id>/PROFILE
 *  8. Members of an organization                             Query    GSI1 GSI1PK=ORG#<id>#MEMBERS
 *  9. Application by id, with roles, permissions, switches and organization authorizations
 *                                                            Query    PK=APP#<id>
 *  9a. Role catalogue of an application (roles, permissions, switches; not the organization
 *      authorizations, which grow with the organizations)   Query    PK=APP#<id> SK >= PERM#
 *  9b. Roles one organization holds in an application       Query    PK=APP#<id> SK begins_with ORGAUTHZ#<orgId>#
 * 10. Application by client id (OAuth)                       GetItem  CLIENT#<clientId>/CLIENT
 * 11. Users authorized in an application                     Query    GSI1 GSI1PK=APP#<id>#USERS
 * 12. Applications an organization is authorized in          Query    GSI1 GSI1PK=ORG#<id>#APPS
 * 13. Applications a user is authorized in                   Query    PK=USER#<id> SK begins_with AUTHZ#
 * 14. Token, code, session by digest                         GetItem  TOKEN#|CODE#|SESSION#<sha256>
 * 15. Tokens of one grant (revocation of a chain)            Query    GSI1 GSI1PK=GRANT#<grantId>
 * 16. Brute-force guard for an email                         GetItem  GUARD#<email>/GUARD
 * 17. Consent of a user for an application                  GetItem  USER#<uid>/CONSENT#<appId>
 * 18. Role catalogue of an application in one item (roles, permissions' verb and path, switches),
 *     kept with every catalogue write, for the lookups       GetItem / BatchGetItem  APP#<id>/CATALOGUE
 * 19. Roles one organization holds in an application, one item per pair, kept with every
 *     organization authorization, read by the keys a user's memberships give
 *                                                            BatchGetItem  APP#<id>/ORGROLES#<orgId>
 * 20. Keyrock API token by digest, with its user (the value names the user id)
 *                                                            BatchGetItem  APITOKEN#<sha256>/APITOKEN + USER#<id>/PROFILE
 * 21. A page of users for an administrator (/v1/users): ids drawn from the counter, so a page is
 *     the profiles of an id range, never a Scan              BatchGetItem  COUNTER/IDS + USER#<from..to>/PROFILE
 * 22. Gatehouse id of a record imported from Keyrock, by its Keyrock id
 *                                                            BatchGetItem  KEYROCK#<kind>#<uuid>/ALIAS
 * 23. A revoked JWT access token (RFC 7009 on an RFC 9068 token), by its `jti`, until it
 *     expires (TTL); introspection reads it with the client
 *                                                            PutItem / BatchGetItem  JTI#<jti>/REVOKED
 * 24. E-mail verification or password reset link by digest (single use: a conditional update
 *     marks it used)                                          GetItem / UpdateItem  LINK#<sha256>/LINK
 * 25. A user's portal sessions (a password reset ends them)  Query    GSI1 GSI1PK=USER#<id>#SESSIONS
 * 26. A user's OAuth grants holding refresh tokens (a password reset revokes them, then each
 *     grant's tokens through pattern 15)                     Query    PK=USERGRANTS#<id>
 * 27. Rate limit of one action per email or client address   UpdateItem  RATE#<action>#<subject>/RATE
 * 28. PEP proxy or IoT agent by its id (sign-in; the record names its application)
 *                                                            GetItem  AGENT#<kind>#<id>/AGENT
 * 29. An application's PEP proxy (one at most) and IoT agents, one pointer item each in the
 *     application's partition (deleted with it)             GetItem / Query  APP#<id>/AGENT#pep, AGENT#iot#<id>
 * 30. A user's second factors (authenticator app secret, recovery codes, passkeys, enrolments
 *     under way): the sign-in reads them all      Query    PK=MFA#<userId>; GetItem MFA#<userId>/PASSKEY#<credentialId>
 * 31. A sign-in waiting for its second factor, or a passkey sign-in's challenge, by digest
 *                                                            GetItem / DeleteItem  SIGNIN#<sha256>/SIGNIN
 * 32. The user directory for administrators, by email prefix: the profile itself is indexed
 *     (one index partition, sorted by email), so a page is one Query, never a Scan
 *                                                            Query    GSI1 GSI1PK=DIRECTORY#EMAIL begins_with(GSI1SK, <prefix>)
 * 33. The user directory by display-name prefix: one small entry per user outside the user's
 *     partition, then the profiles              Query    GSI1 GSI1PK=DIRECTORY#NAME → BatchGetItem USER#<id>/PROFILE
 * 34. The administrators' ids, one number set (the last one cannot step down or go)
 *                                                            GetItem / UpdateItem  COUNTER/ADMINS
 */

export const GSI1 = 'GSI1';

export type Key = { PK: string; SK: string };

export const keys = {
  counters: (): Key => ({ PK: 'COUNTER', SK: 'IDS' }),
  stats: (): Key => ({ PK: 'COUNTER', SK: 'STATS' }),

  user: (userId: number): Key => ({ PK: `USER#${userId}`, SK: 'PROFILE' }),
  userPartition: (userId: number) => `USER#${userId}`,
  login: (email: string): Key => ({ PK: `LOGIN#${email.toLowerCase()}`, SK: 'LOGIN' }),
  nick: (nickName: string): Key => ({ PK: `NICK#${nickName.toLowerCase()}`, SK: 'NICK' }),
  actor: (actorId: number): Key => ({ PK: `ACTOR#${actorId}`, SK: 'ACTOR' }),

  organization: (orgId: number): Key => ({ PK: `ORG#${orgId}`, SK: 'PROFILE' }),
  membership: (orgId: number, userId: number): Key => ({ PK: `USER#${userId}`, SK: `MEMBER#${orgId}` }),
  membershipPrefix: 'MEMBER#',
  orgMembersGsi: (orgId: number, userId: number) => ({
    GSI1PK: `ORG#${orgId}#MEMBERS`,
    GSI1SK: `USER#${userId}`,
  }),
  orgMembersPartition: (orgId: number) => `ORG#${orgId}#MEMBERS`,

  application: (appId: number): Key => ({ PK: `APP#${appId}`, SK: 'META' }),
  appPartition: (appId: number) => `APP#${appId}`,
  client: (clientId: string): Key => ({ PK: `CLIENT#${clientId}`, SK: 'CLIENT' }),
  role: (appId: number, roleId: number): Key => ({ PK: `APP#${appId}`, SK: `ROLE#${roleId}` }),
  rolePrefix: 'ROLE#',
  permission: (appId: number, permissionId: number): Key => ({
    PK: `APP#${appId}`,
    SK: `PERM#${permissionId}`,
  }),
  permissionPrefix: 'PERM#',
  rolePermission: (appId: number, roleId: number, permissionId: number): Key => ({
    PK: `APP#${appId}`,
    SK: `ROLEPERM#${roleId}#${permissionId}`,
  }),
  rolePermissionPrefix: 'ROLEPERM#',
  /**
   * Sort keys in APP#<id> order as AGENT# < CATALOGUE < META < ORGAUTHZ# < ORGROLES# < PERM# < ROLE# <
   * ROLEPERM#, so the role
   * catalogue (permissions, roles, switches) is the range SK >= PERM#: a lookup can read it
   * without the organization authorizations, which grow with the organizations in the app.
   * test/store.test.ts checks the order holds.
   */
  appCatalogueStart: 'PERM#',

  /**
   * The role catalogue as one item (pattern 18): `r<roleId>` {name, builtIn}, `p<permissionId>`
   * {verb, path, r?, h?} (a pattern; a required service header), `s<roleId>` the permission ids
   * switched on; `v` once it is complete. Sorts before META, outside the catalogue range.
   */
  catalogue: (appId: number): Key => ({ PK: `APP#${appId}`, SK: 'CATALOGUE' }),
  /** The role ids an organization holds in an application (pattern 19): after ORGAUTHZ#, before PERM#. */
  orgRoles: (appId: number, orgId: number): Key => ({ PK: `APP#${appId}`, SK: `ORGROLES#${orgId}` }),

  /** An organization holds a role in an application: lives in the application's partition. */
  orgAuthorization: (appId: number, orgId: number, roleId: number): Key => ({
    PK: `APP#${appId}`,
    SK: `ORGAUTHZ#${orgId}#${roleId}`,
  }),
  orgAuthorizationPrefix: 'ORGAUTHZ#',
  orgAppsGsi: (orgId: number, appId: number, roleId: number) => ({
    GSI1PK: `ORG#${orgId}#APPS`,
    GSI1SK: `APP#${appId}#ROLE#${roleId}`,
  }),
  orgAppsPartition: (orgId: number) => `ORG#${orgId}#APPS`,

  /** A user holds a role in an application: lives in the user's partition. */
  userAuthorization: (appId: number, userId: number, roleId: number): Key => ({
    PK: `USER#${userId}`,
    SK: `AUTHZ#${appId}#${roleId}`,
  }),
  userAuthorizationPrefix: 'AUTHZ#',
  appUsersGsi: (appId: number, userId: number, roleId: number) => ({
    GSI1PK: `APP#${appId}#USERS`,
    GSI1SK: `USER#${userId}#ROLE#${roleId}`,
  }),
  appUsersPartition: (appId: number) => `APP#${appId}#USERS`,

  /** The user approved an application at /oauth2/authorize. */
  consent: (userId: number, appId: number): Key => ({ PK: `USER#${userId}`, SK: `CONSENT#${appId}` }),

  token: (digest: string): Key => ({ PK: `TOKEN#${digest}`, SK: 'TOKEN' }),
  code: (digest: string): Key => ({ PK: `CODE#${digest}`, SK: 'CODE' }),
  grantGsi: (grantId: string) => ({ GSI1PK: `GRANT#${grantId}`, GSI1SK: 'TOKEN' }),
  grantPartition: (grantId: string) => `GRANT#${grantId}`,
  session: (digest: string): Key => ({ PK: `SESSION#${digest}`, SK: 'SESSION' }),
  guard: (email: string): Key => ({ PK: `GUARD#${email.toLowerCase()}`, SK: 'GUARD' }),
  /** An e-mail verification or password reset link, by the SHA-256 digest of its token. */
  accountLink: (digest: string): Key => ({ PK: `LINK#${digest}`, SK: 'LINK' }),
  /** Indexes a session under its user (pattern 25), so a password reset can end them all. */
  userSessionsGsi: (userId: number, digest: string) => ({
    GSI1PK: `USER#${userId}#SESSIONS`,
    GSI1SK: `SESSION#${digest}`,
  }),
  userSessionsPartition: (userId: number) => `USER#${userId}#SESSIONS`,
  /** A grant of the user's that holds refresh tokens (pattern 26); expires with its last token. */
  userGrant: (userId: number, grantId: string): Key => ({
    PK: `USERGRANTS#${userId}`,
    SK: `GRANT#${grantId}`,
  }),
  userGrantsPartition: (userId: number) => `USERGRANTS#${userId}`,
  /** A counter of one action (`reset`, `verify`) per email or client address (pattern 27). */
  rate: (action: string, subject: string): Key => ({
    PK: `RATE#${action}#${subject.toLowerCase()}`,
    SK: 'RATE',
  }),
  /** A PEP proxy's or IoT agent's credentials (pattern 28): ids are Keyrock's `pep_proxy_<uuid>`, `iot_sensor_<uuid>`. */
  agent: (kind: AgentKind, id: string): Key => ({ PK: `AGENT#${kind}#${id}`, SK: 'AGENT' }),
  /**
   * The pointer to an agent in its application's partition (pattern 29): the PEP proxy has the one
   * sort key `AGENT#pep` (so a second cannot be written), IoT agents `AGENT#iot#<id>`. Sorts
   * before CATALOGUE, outside the catalogue range.
   */
  appAgent: (appId: number, kind: AgentKind, id: string): Key => ({
    PK: `APP#${appId}`,
    SK: kind === 'pep' ? 'AGENT#pep' : `AGENT#iot#${id}`,
  }),
  appIotAgentsPrefix: 'AGENT#iot#',
  /**
   * A user's second factors (pattern 30), apart from USER#<id> so that GET /user, which reads
   * that whole partition, never reads them: `TOTP` (the encrypted secret), `TOTP#PENDING` (an
   * enrolment not yet confirmed), `RECOVERY` (digests of the recovery codes), `PASSKEY#<id>`
   * (a WebAuthn credential) and `PASSKEY#PENDING` (a registration's challenge).
   */
  twoFactor: (userId: number, what: 'TOTP' | 'TOTP#PENDING' | 'RECOVERY' | 'PASSKEY#PENDING'): Key => ({
    PK: `MFA#${userId}`,
    SK: what,
  }),
  passkey: (userId: number, credentialId: string): Key => ({
    PK: `MFA#${userId}`,
    SK: `PASSKEY#${credentialId}`,
  }),
  passkeyPrefix: 'PASSKEY#',
  twoFactorPartition: (userId: number) => `MFA#${userId}`,
  /** A sign-in waiting for its second factor, or a passkey sign-in's challenge (pattern 31). */
  signInTicket: (digest: string): Key => ({ PK: `SIGNIN#${digest}`, SK: 'SIGNIN' }),
  /** A Keyrock API token (POST /v1/auth/tokens), by the SHA-256 digest of its value. */
  apiToken: (digest: string): Key => ({ PK: `APITOKEN#${digest}`, SK: 'APITOKEN' }),
  /**
   * The deny-list entry of a revoked JWT access token (pattern 23), by its `jti` claim (a random
   * UUID): `expiresAt` is the token's own `exp`, so TTL removes it once the token is dead anyway.
   */
  revokedJti: (jti: string): Key => ({ PK: `JTI#${jti}`, SK: 'REVOKED' }),
  /**
   * The Gatehouse record a Keyrock id (a UUID string) was imported as, written in the same
   * transaction as the record: an import run twice finds it and writes nothing twice.
   */
  keyrockAlias: (kind: KeyrockKind, keyrockId: string): Key => ({
    PK: `KEYROCK#${kind}#${keyrockId}`,
    SK: 'ALIAS',
  }),
  /**
   * The user directory (patterns 32, 33): the profile carries the email index keys; a display
   * name entry (`USERNAME#<id>`, outside the user's partition that GET /user reads) carries the
   * name index keys. Sort keys are lower-cased, so a prefix search ignores case.
   */
  directoryEmailPartition: 'DIRECTORY#EMAIL',
  directoryNamePartition: 'DIRECTORY#NAME',
  userEmailGsi: (email: string) => ({ GSI1PK: 'DIRECTORY#EMAIL', GSI1SK: email.toLowerCase() }),
  userNameEntry: (userId: number): Key => ({ PK: `USERNAME#${userId}`, SK: 'NAME' }),
  userNameGsi: (displayName: string, userId: number) => ({
    GSI1PK: 'DIRECTORY#NAME',
    GSI1SK: `${displayName.toLowerCase()}#${userId}`,
  }),
  /** The administrators' user ids, one number set (pattern 34). */
  admins: (): Key => ({ PK: 'COUNTER', SK: 'ADMINS' }),
} as const;

/** Keyrock's two kinds of non-human credentials of an application: its PEP proxy, its IoT agents. */
export type AgentKind = 'pep' | 'iot';

/** What `idm import keyrock` carries over with its Keyrock id. */
export type KeyrockKind = 'user' | 'organization' | 'role' | 'permission';

/** Reads the integer id back from a key segment such as `ROLE#12`. */
export function idFrom(sk: string, position = 1): number {
  return Number(sk.split('#')[position]);
}
