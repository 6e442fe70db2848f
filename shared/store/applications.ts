import { conflict, notFound } from '../errors.js';
import {
  type AccessTokenFormat,
  type BuiltInRole,
  type GrantType,
  type KeyrockTokenType,
  MEMBER_ROLES,
  type MemberRole,
} from '../model.js';
import { isoNow } from '../time.js';
import type { Db } from './db.js';
import { keys } from './keys.js';
import {
  batchGet,
  getItem,
  type Item,
  isConditionalFailure,
  nextIds,
  queryGsi1,
  queryPartition,
  TransactionFailed,
  transact,
} from './ops.js';
import { catalogueItem, orgRolesSummary, type Role } from './summaries.js';

export interface Application {
  id: number;
  name: string;
  description: string;
  url: string;
  callbackUrl: string;
  clientId: string;
  grantTypes: GrantType[];
  /** Undefined (older items) reads as opaque. */
  accessTokenFormat?: AccessTokenFormat | undefined;
  /**
   * Where RP-initiated logout may return to (OpenID Connect RP-Initiated Logout 1.0 §3), matched
   * exactly; Keyrock's `redirect_sign_out_uri` is this list with one entry. Absent on older items.
   */
  postLogoutRedirectUris?: string[] | undefined;
  /** Keyrock's token types allowed besides `bearer` (none when absent). */
  tokenTypes?: KeyrockTokenType[] | undefined;
  /** The `jwt` type's HMAC secret, sealed (shared/domain/jwt-secrets.ts); present with `jwt`. */
  jwtSecret?: string | undefined;
  /** S3 key of the logo, when one was saved. */
  logoKey?: string | undefined;
  ownerActorId: number;
  createdAt: string;
}

/** What the OAuth endpoints need about a client, in one item keyed by client id. */
export interface Client {
  clientId: string;
  appId: number;
  name: string;
  secretHash: string;
  callbackUrl: string;
  grantTypes: GrantType[];
  /** `jwt`: RFC 9068 access tokens (shared/oidc/access-token.ts); undefined or `opaque`: random values. */
  accessTokenFormat?: AccessTokenFormat | undefined;
  /** RP-Initiated Logout 1.0 §3: the registered post-logout redirect URIs (none when absent). */
  postLogoutRedirectUris?: string[] | undefined;
  /** Client ids whose tokens GET /user?app_id=<this client> accepts (Keyrock's trusted applications). */
  trusted?: string[] | undefined;
  /** Keyrock's token types allowed besides `bearer` (the token endpoint checks `scope` against them). */
  tokenTypes?: KeyrockTokenType[] | undefined;
  /** The sealed HS256 secret of `jwt` tokens: the token endpoint signs, GET /user verifies with it. */
  jwtSecret?: string | undefined;
}

export type { Role } from './summaries.js';

export type Owner =
  | { kind: 'user'; userId: number; actorId: number }
  | { kind: 'org'; orgId: number; actorId: number };

export function toApplication(item: Item): Application {
  return {
    id: item.id as number,
    name: item.name as string,
    description: item.description as string,
    url: item.url as string,
    callbackUrl: item.callbackUrl as string,
    clientId: item.clientId as string,
    grantTypes: item.grantTypes as GrantType[],
    accessTokenFormat: item.accessTokenFormat as AccessTokenFormat | undefined,
    postLogoutRedirectUris: item.postLogoutRedirectUris as string[] | undefined,
    tokenTypes: item.tokenTypes as KeyrockTokenType[] | undefined,
    jwtSecret: item.jwtSecret as string | undefined,
    logoKey: item.logoKey as string | undefined,
    ownerActorId: item.ownerActorId as number,
    createdAt: item.createdAt as string,
  };
}

export function toClient(item: Item): Client {
  return {
    clientId: item.clientId as string,
    appId: item.appId as number,
    name: item.name as string,
    secretHash: item.secretHash as string,
    callbackUrl: item.callbackUrl as string,
    grantTypes: item.grantTypes as GrantType[],
    accessTokenFormat: item.accessTokenFormat as AccessTokenFormat | undefined,
    postLogoutRedirectUris: item.postLogoutRedirectUris as string[] | undefined,
    trusted: item.trusted as string[] | undefined,
    tokenTypes: item.tokenTypes as KeyrockTokenType[] | undefined,
    jwtSecret: item.jwtSecret as string | undefined,
  };
}

export function toRole(item: Item): Role {
  return {
    id: item.id as number,
    appId: item.appId as number,
    name: item.name as string,
    builtIn: item.builtIn as BuiltInRole | undefined,
  };
}

export interface NewApplication {
  name: string;
  description: string;
  url: string;
  callbackUrl: string;
  grantTypes: GrantType[];
  accessTokenFormat?: AccessTokenFormat | undefined;
  postLogoutRedirectUris?: string[] | undefined;
  tokenTypes?: KeyrockTokenType[] | undefined;
  /** Sealed (shared/domain/jwt-secrets.ts), with `jwt` in tokenTypes. */
  jwtSecret?: string | undefined;
  clientId: string;
  secretHash: string;
  owner: Owner;
}

/**
 * An application, its client-id item, its Provider and Purchaser roles and its owner's Provider
 * authorization, written in one transaction (with a check that the owner still exists).
 */
export async function createApplication(
  db: Db,
  input: NewApplication,
): Promise<{ app: Application; roles: Role[] }> {
  const ids = await nextIds(db, { app: 1, role: 2 });
  const app: Application = {
    id: ids.app,
    name: input.name,
    description: input.description,
    url: input.url,
    callbackUrl: input.callbackUrl,
    clientId: input.clientId,
    grantTypes: input.grantTypes,
    accessTokenFormat: input.accessTokenFormat,
    postLogoutRedirectUris: input.postLogoutRedirectUris,
    tokenTypes: input.tokenTypes ?? [],
    jwtSecret: input.jwtSecret,
    ownerActorId: input.owner.actorId,
    createdAt: isoNow(),
  };
  const provider: Role = { id: ids.role - 1, appId: app.id, name: 'Provider', builtIn: 'provider' };
  const purchaser: Role = { id: ids.role, appId: app.id, name: 'Purchaser', builtIn: 'purchaser' };
  const owner = input.owner;
  const ownerAuthorization =
    owner.kind === 'user'
      ? userAuthorizationItem(app.id, owner.userId, provider.id)
      : orgAuthorizationItem(app.id, owner.orgId, provider.id);
  const absent = 'attribute_not_exists(PK)';
  try {
    await transact(db, [
      {
        ConditionCheck: {
          TableName: db.table,
          Key: owner.kind === 'user' ? keys.user(owner.userId) : keys.organization(owner.orgId),
          ConditionExpression: 'attribute_exists(PK)',
        },
      },
      {
        Put: {
          TableName: db.table,
          Item: { ...keys.application(app.id), type: 'application', ...app },
          ConditionExpression: absent,
        },
      },
      {
        Put: {
          TableName: db.table,
          Item: { ...keys.client(app.clientId), type: 'client', ...clientOf(app, input.secretHash) },
          ConditionExpression: absent,
        },
      },
      { Put: { TableName: db.table, Item: roleItem(provider), ConditionExpression: absent } },
      { Put: { TableName: db.table, Item: roleItem(purchaser), ConditionExpression: absent } },
      { Put: { TableName: db.table, Item: ownerAuthorization } },
      { Put: { TableName: db.table, Item: catalogueItem(app.id, [provider, purchaser]) } },
      ...(owner.kind === 'org' ? [orgRolesSummary.replace(db, app.id, owner.orgId, [provider.id])] : []),
    ]);
  } catch (error) {
    if (error instanceof TransactionFailed && error.failedAt(0)) {
      throw notFound(
        owner.kind === 'user'
          ? `User ${owner.userId} does not exist.`
          : `Organization ${owner.orgId} does not exist.`,
      );
    }
    // Only a client id given from outside (an application moved from Keyrock) can be taken.
    if (error instanceof TransactionFailed && error.failedAt(2)) {
      throw conflict('An application already has this client id.', 'clientId');
    }
    throw error;
  }
  return { app, roles: [provider, purchaser] };
}

function clientOf(app: Application, secretHash: string): Client {
  return {
    clientId: app.clientId,
    appId: app.id,
    name: app.name,
    secretHash,
    callbackUrl: app.callbackUrl,
    grantTypes: app.grantTypes,
    accessTokenFormat: app.accessTokenFormat,
    postLogoutRedirectUris: app.postLogoutRedirectUris,
    tokenTypes: app.tokenTypes,
    jwtSecret: app.jwtSecret,
  };
}

export function roleItem(role: Role): Item {
  return { ...keys.role(role.appId, role.id), type: 'role', ...role };
}

export function userAuthorizationItem(appId: number, userId: number, roleId: number): Item {
  return {
    ...keys.userAuthorization(appId, userId, roleId),
    ...keys.appUsersGsi(appId, userId, roleId),
    type: 'userAuthorization',
    appId,
    userId,
    roleId,
  };
}

/**
 * An organization's role in an application. Without `heldBy` every member and owner holds it
 * (Gatehouse's grant); with it only the organization's members or only its owners do (Keyrock's
 * `role_organization`), kept as a string set.
 */
export function orgAuthorizationItem(
  appId: number,
  orgId: number,
  roleId: number,
  only: readonly MemberRole[] = MEMBER_ROLES,
): Item {
  return {
    ...keys.orgAuthorization(appId, orgId, roleId),
    ...keys.orgAppsGsi(orgId, appId, roleId),
    type: 'orgAuthorization',
    appId,
    orgId,
    roleId,
    ...(only.length === 1 ? { heldBy: new Set(only) } : {}),
  };
}

/** Whom in the organization an ORGAUTHZ item gives its role to. */
export const heldBy = (item: Item): MemberRole[] => {
  const set = item.heldBy as Set<MemberRole> | undefined;
  return set ? MEMBER_ROLES.filter((r) => set.has(r)) : [...MEMBER_ROLES];
};

export async function getApplication(db: Db, appId: number): Promise<Application | undefined> {
  const item = await getItem(db, keys.application(appId));
  return item ? toApplication(item) : undefined;
}

export async function requireApplication(db: Db, appId: number): Promise<Application> {
  const app = await getApplication(db, appId);
  if (!app) throw notFound(`Application ${appId} does not exist.`);
  return app;
}

export async function getClient(db: Db, clientId: string): Promise<Client | undefined> {
  const item = await getItem(db, keys.client(clientId));
  return item ? toClient(item) : undefined;
}

/** Several applications by id, in one BatchGetItem. Unknown ids are skipped. */
export async function applicationsByIds(db: Db, appIds: number[]): Promise<Application[]> {
  if (appIds.length === 0) return [];
  const items = await batchGet(db, appIds.map(keys.application));
  return items.map(toApplication).sort((a, b) => a.id - b.id);
}

/** Ids of the applications a user holds any role in (their own partition). */
export async function appIdsOfUser(db: Db, userId: number): Promise<number[]> {
  const items = await queryPartition(db, keys.userPartition(userId), keys.userAuthorizationPrefix);
  return [...new Set(items.map((i) => i.appId as number))];
}

/** Ids of the applications an organization holds any role in (GSI1). */
export async function appIdsOfOrganization(db: Db, orgId: number): Promise<number[]> {
  const items = await queryGsi1(db, keys.orgAppsPartition(orgId));
  return [...new Set(items.map((i) => i.appId as number))];
}

export interface ApplicationChanges {
  name?: string;
  description?: string;
  url?: string;
  callbackUrl?: string;
  grantTypes?: GrantType[];
  accessTokenFormat?: AccessTokenFormat;
  postLogoutRedirectUris?: string[];
  tokenTypes?: KeyrockTokenType[];
  /** Sealed; `null` removes it (the application no longer has the `jwt` type). */
  jwtSecret?: string | null;
}

/** Updates the application and its client item together, so OAuth never sees a stale callback. */
export async function updateApplication(
  db: Db,
  appId: number,
  changes: ApplicationChanges,
): Promise<Application> {
  const app = await requireApplication(db, appId);
  const next: Application = {
    ...app,
    ...Object.fromEntries(Object.entries(changes).filter(([, v]) => v !== undefined)),
  };
  if (changes.jwtSecret === null) next.jwtSecret = undefined;
  // The sealed jwt secret is set or removed on both items with the rest.
  const set = (fields: Record<string, unknown>) => {
    const secret = next.jwtSecret;
    const entries = Object.entries({ ...fields, ...(secret !== undefined ? { jwtSecret: secret } : {}) });
    return {
      UpdateExpression: `SET ${entries.map((_, i) => `#f${i} = :v${i}`).join(', ')}${
        secret === undefined ? ' REMOVE #secret' : ''
      }`,
      ExpressionAttributeNames: {
        ...Object.fromEntries(entries.map(([k], i) => [`#f${i}`, k])),
        ...(secret === undefined ? { '#secret': 'jwtSecret' } : {}),
      },
      ExpressionAttributeValues: Object.fromEntries(entries.map(([, v], i) => [`:v${i}`, v])),
    };
  };
  await transact(db, [
    {
      Update: {
        TableName: db.table,
        Key: keys.application(appId),
        ConditionExpression: 'attribute_exists(PK)',
        ...set({
          name: next.name,
          description: next.description,
          url: next.url,
          callbackUrl: next.callbackUrl,
          grantTypes: next.grantTypes,
          accessTokenFormat: next.accessTokenFormat ?? 'opaque',
          postLogoutRedirectUris: next.postLogoutRedirectUris ?? [],
          tokenTypes: next.tokenTypes ?? [],
        }),
      },
    },
    {
      Update: {
        TableName: db.table,
        Key: keys.client(app.clientId),
        ConditionExpression: 'attribute_exists(PK)',
        ...set({
          name: next.name,
          callbackUrl: next.callbackUrl,
          grantTypes: next.grantTypes,
          accessTokenFormat: next.accessTokenFormat ?? 'opaque',
          postLogoutRedirectUris: next.postLogoutRedirectUris ?? [],
          tokenTypes: next.tokenTypes ?? [],
        }),
      },
    },
  ]);
  return next;
}

export async function setClientSecretHash(db: Db, appId: number, secretHash: string): Promise<void> {
  const app = await requireApplication(db, appId);
  await db.doc.update({
    TableName: db.table,
    Key: keys.client(app.clientId),
    UpdateExpression: 'SET secretHash = :h',
    ConditionExpression: 'attribute_exists(PK)',
    ExpressionAttributeValues: { ':h': secretHash },
  });
}

/**
 * Replaces the sealed jwt secret of an application on both items (`idm import keyrock` keeps the
 * secret Keyrock issued, which the PEP proxies hold as PEP_TOKEN_SECRET).
 */
export async function setSealedJwtSecret(
  db: Db,
  app: { id: number; clientId: string },
  sealed: string,
): Promise<void> {
  const update = (Key: Record<string, string>) => ({
    Update: {
      TableName: db.table,
      Key,
      ConditionExpression: 'attribute_exists(PK)',
      UpdateExpression: 'SET jwtSecret = :s',
      ExpressionAttributeValues: { ':s': sealed },
    },
  });
  try {
    await transact(db, [update(keys.application(app.id)), update(keys.client(app.clientId))]);
  } catch (error) {
    if (error instanceof TransactionFailed) throw notFound(`Application ${app.id} does not exist.`);
    throw error;
  }
}

export async function setLogoKey(db: Db, appId: number, logoKey: string): Promise<void> {
  try {
    await db.doc.update({
      TableName: db.table,
      Key: keys.application(appId),
      UpdateExpression: 'SET logoKey = :k',
      ConditionExpression: 'attribute_exists(PK)',
      ExpressionAttributeValues: { ':k': logoKey },
    });
  } catch (error) {
    if (isConditionalFailure(error)) throw notFound(`Application ${appId} does not exist.`);
    throw error;
  }
}

/**
 * Deletes an application. The metadata and client items go first, in one transaction, so the
 * application disappears for every reader at once; its roles, permissions and authorizations
 * are then removed in batches (stragglers are unreachable without the metadata item).
 */
export async function deleteApplication(db: Db, appId: number): Promise<void> {
  const app = await requireApplication(db, appId);
  await transact(db, [
    { Delete: { TableName: db.table, Key: keys.application(appId) } },
    { Delete: { TableName: db.table, Key: keys.client(app.clientId) } },
  ]);
  const [partition, userAuthorizations] = await Promise.all([
    queryPartition(db, keys.appPartition(appId)),
    queryGsi1(db, keys.appUsersPartition(appId)),
  ]);
  const rest = [...partition, ...userAuthorizations].map((i) => ({ PK: i.PK as string, SK: i.SK as string }));
  // The application's PEP proxy and IoT agents: their records live under their own ids (sign-in
  // reads them by id), and go with the pointers in the partition (store/agents.ts).
  for (const i of partition) if (i.agentKey) rest.push(i.agentKey as { PK: string; SK: string });
  for (let i = 0; i < rest.length; i += 25) {
    let pending = rest.slice(i, i + 25).map((Key) => ({ DeleteRequest: { Key } }));
    while (pending.length > 0) {
      const out = await db.doc.batchWrite({ RequestItems: { [db.table]: pending } });
      pending = (out.UnprocessedItems?.[db.table] ?? []) as typeof pending;
    }
  }
}
