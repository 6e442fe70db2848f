/**
 * The benchmark's data, prepared through the repositories and domain functions the service itself
 * uses (no hand-built items except the bulk users of the growth section, which reuse keys.ts):
 * an application with every grant (and a second one with JWT access tokens), users with 0, 1 and 20 organizations (each organization
 * holding a role in the application), a permission switched on for a role (for decisions), and
 * tokens obtained from the token endpoint itself.
 */
import { randomUUID } from 'node:crypto';
import { config } from '../shared/config.js';
import { registerUser } from '../shared/domain/accounts.js';
import { registerApplication } from '../shared/domain/applications.js';
import { sessionCookieName } from '../shared/http/session.js';
import { mintTokens } from '../shared/oauth/tokens.js';
import { type Client, getClient, orgAuthorizationItem } from '../shared/store/applications.js';
import { authorize } from '../shared/store/authorizations.js';
import { putConsent } from '../shared/store/consents.js';
import type { Db } from '../shared/store/db.js';
import { keys } from '../shared/store/keys.js';
import { nextIds } from '../shared/store/ops.js';
import { createOrganization } from '../shared/store/organizations.js';
import { createPermission, setRolePermission } from '../shared/store/roles.js';
import { createSession } from '../shared/store/sessions.js';
import { putCode, putTokens } from '../shared/store/tokens.js';
import type { User } from '../shared/store/users.js';
import { nowSeconds } from '../shared/time.js';
import { basic, form, invoke } from './invoke.js';

export const PASSWORD = 'bench password 1';
export const CALLBACK = 'https://client.example/callback';

export interface BenchUser {
  user: User;
  email: string;
  accessToken: string;
}

export interface Fixture {
  client: Client;
  clientSecret: string;
  authorization: string;
  /** Basic credentials of a second application, one with `accessTokenFormat: 'jwt'` (RFC 9068). */
  jwtAuthorization: string;
  appId: number;
  /** The role (Purchaser) the bench users and organizations hold in the app. */
  roleId: number;
  /** Users with 0, 1 and 20 organizations, each organization holding a role in the app. */
  users: { orgs0: BenchUser; orgs1: BenchUser; orgs20: BenchUser; orgs50?: BenchUser };
  clientCredentialsToken: string;
  /** The 1-organization user's Keyrock `jwt` access token (scope=jwt; HS256 with the app's secret). */
  keyrockJwt: string;
  sessionCookie: string;
  permission: { verb: string; path: string };
  bcryptCost: number;
}

async function token(fields: Record<string, string>, authorization: string): Promise<Record<string, string>> {
  const res = await invoke({
    method: 'POST',
    url: '/oauth2/token',
    headers: { authorization, 'content-type': 'application/x-www-form-urlencoded' },
    body: form(fields),
  });
  if (res.statusCode !== 200) throw new Error(`token endpoint answered ${res.statusCode}: ${res.body}`);
  return JSON.parse(res.body ?? '{}') as Record<string, string>;
}

/** A user holding a role in the app directly and through `orgCount` organizations. */
async function benchUser(
  db: Db,
  name: string,
  orgCount: number,
  app: { appId: number; roleId: number },
  authorization: string,
  bcryptCost: number,
): Promise<BenchUser> {
  const email = `${name}-${randomUUID().slice(0, 8)}@bench.example`;
  const user = await registerUser(db, { email, password: PASSWORD, displayName: name }, bcryptCost);
  await authorize(db, app.appId, { kind: 'user', id: user.id }, app.roleId);
  for (let i = 0; i < orgCount; i++) {
    const org = await createOrganization(db, {
      name: `${name} org ${i + 1}`,
      description: 'benchmark organization',
      ownerUserId: user.id,
    });
    await authorize(db, app.appId, { kind: 'org', id: org.id }, app.roleId);
  }
  const tokens = await token({ grant_type: 'password', username: email, password: PASSWORD }, authorization);
  return { user, email, accessToken: tokens.access_token! };
}

export async function prepare(db: Db, options: { with50Orgs: boolean }): Promise<Fixture> {
  const bcryptCost = config().bcryptCost;
  const owner = await registerUser(
    db,
    { email: `owner-${randomUUID().slice(0, 8)}@bench.example`, password: PASSWORD, displayName: 'Owner' },
    4,
  );
  const { app, roles, clientSecret } = await registerApplication(
    db,
    { kind: 'user', userId: owner.id, actorId: owner.actorId },
    {
      name: 'Bench app',
      description: 'Benchmark application',
      url: 'https://client.example',
      callbackUrl: CALLBACK,
      // Keyrock's `jwt` type, for the PEP proxy's /user with a jwt token; other requests ask for none.
      tokenTypes: ['jwt'],
    },
  );
  // The same owner's application with JWT access tokens: its client-credentials grant signs.
  const jwtApp = await registerApplication(
    db,
    { kind: 'user', userId: owner.id, actorId: owner.actorId },
    {
      name: 'Bench JWT app',
      description: 'Benchmark application with RFC 9068 access tokens',
      url: 'https://client.example',
      callbackUrl: CALLBACK,
      accessTokenFormat: 'jwt',
    },
  );
  const purchaser = roles.find((r) => r.builtIn === 'purchaser')!;
  const permission = await createPermission(db, app.id, {
    name: 'Read orders',
    description: 'benchmark permission',
    verb: 'GET',
    path: '/orders',
  });
  await setRolePermission(db, app.id, purchaser.id, permission.id, true);
  const authorization = basic(app.clientId, clientSecret);
  const target = { appId: app.id, roleId: purchaser.id };
  const users = {
    orgs0: await benchUser(db, 'orgs0', 0, target, authorization, bcryptCost),
    orgs1: await benchUser(db, 'orgs1', 1, target, authorization, bcryptCost),
    orgs20: await benchUser(db, 'orgs20', 20, target, authorization, bcryptCost),
    ...(options.with50Orgs
      ? { orgs50: await benchUser(db, 'orgs50', 50, target, authorization, bcryptCost) }
      : {}),
  };
  const cc = await token({ grant_type: 'client_credentials' }, authorization);
  const keyrockJwt = await token(
    { grant_type: 'password', username: users.orgs1.email, password: PASSWORD, scope: 'jwt' },
    authorization,
  );
  const { id } = await createSession(db, users.orgs0.user.id, 3600);
  await putConsent(db, users.orgs0.user.id, app.id);
  return {
    client: (await getClient(db, app.clientId))!,
    clientSecret,
    authorization,
    jwtAuthorization: basic(jwtApp.app.clientId, jwtApp.clientSecret),
    appId: app.id,
    roleId: purchaser.id,
    users,
    clientCredentialsToken: cc.access_token!,
    keyrockJwt: keyrockJwt.access_token!,
    sessionCookie: `${sessionCookieName()}=${id}`,
    permission: { verb: permission.verb, path: permission.path },
    bcryptCost,
  };
}

/**
 * A fresh authorization code for the user with no organizations, stored by the same repository
 * function the authorize endpoint uses (a code is single-use, so each redemption needs one).
 */
export async function freshCode(db: Db, f: Fixture): Promise<string> {
  const code = randomUUID() + randomUUID();
  const { sha256 } = await import('../shared/crypto.js');
  await putCode(db, {
    digest: sha256(code),
    clientId: f.client.clientId,
    appId: f.appId,
    userId: f.users.orgs0.user.id,
    redirectUri: CALLBACK,
    grantId: randomUUID(),
    expiresAt: nowSeconds() + config().authorizationCodeTtl,
  });
  return code;
}

/** A fresh refresh token (rotation makes each single-use), stored as the token endpoint stores it. */
export async function freshRefreshToken(db: Db, f: Fixture): Promise<string> {
  const minted = mintTokens({ client: f.client, userId: f.users.orgs0.user.id, withRefresh: true });
  await putTokens(db, minted.records);
  return minted.refreshToken!;
}

/**
 * Bulk users for the growth section: each user's profile and login items exactly as createUser
 * writes them (built with keys.ts), loaded with parallel BatchWriteItem, without bcrypt (every
 * bulk user shares one precomputed hash) and without the per-user transaction. The nickName and
 * actor items are left out: no measured request reads them, and they would double the load time.
 */
export async function loadUsers(
  db: Db,
  count: number,
  passwordHash: string,
  concurrency = 24,
): Promise<void> {
  if (count <= 0) return;
  const ids = await nextIds(db, { user: count, actor: count });
  const firstUser = ids.user - count + 1;
  const firstActor = ids.actor - count + 1;
  const createdAt = new Date().toISOString();
  const tag = randomUUID().slice(0, 6);
  let next = 0;
  const itemsOf = (i: number) => {
    const id = firstUser + i;
    const email = `bulk-${tag}-${id}@bench.example`;
    return [
      { ...keys.login(email), type: 'login', userId: id, passwordHash },
      {
        ...keys.user(id),
        type: 'user',
        id,
        actorId: firstActor + i,
        email,
        nickName: `bulk-${tag}-${id}`,
        displayName: `Bulk user ${id}`,
        createdAt,
      },
    ];
  };
  const worker = async () => {
    for (;;) {
      const start = next;
      if (start >= count) return;
      next = Math.min(count, start + 12); // 12 users × 2 items ≤ 25 items per BatchWriteItem
      let pending = [];
      for (let i = start; i < next; i++)
        pending.push(...itemsOf(i).map((Item) => ({ PutRequest: { Item } })));
      while (pending.length > 0) {
        const out = await db.doc.batchWrite({ RequestItems: { [db.table]: pending } });
        pending = (out.UnprocessedItems?.[db.table] ?? []) as typeof pending;
      }
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
}

/**
 * Organizations holding a role in an application, as authorize() writes them (the item built by
 * orgAuthorizationItem), for organization ids above any real one: only the application's
 * partition and the organizations' GSI entries grow.
 */
export async function loadOrgAuthorizations(
  db: Db,
  appId: number,
  roleId: number,
  count: number,
): Promise<void> {
  const items = Array.from({ length: count }, (_, i) => orgAuthorizationItem(appId, 10_000_000 + i, roleId));
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      let pending = items.slice(next, next + 25).map((Item) => ({ PutRequest: { Item } }));
      next += 25;
      while (pending.length > 0) {
        const out = await db.doc.batchWrite({ RequestItems: { [db.table]: pending } });
        pending = (out.UnprocessedItems?.[db.table] ?? []) as typeof pending;
      }
    }
  };
  await Promise.all(Array.from({ length: 16 }, worker));
}
