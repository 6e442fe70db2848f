import { type Application, type Client, heldBy, toApplication, toClient } from './applications.js';
import type { Db } from './db.js';
import { keys } from './keys.js';
import { batchGet, findItem, type Item, queryPartition, queryPartitionFrom } from './ops.js';
import { type Membership, toMembership } from './organizations.js';
import { catalogueFrom } from './roles.js';
import { type RoleRules, roleIdsFrom, rulesFromSummary } from './summaries.js';
import { type TokenRecord, toToken } from './tokens.js';
import { toUser, type User } from './users.js';

/**
 * What Gatehouse knows about a user in one application: the question behind GET /user, its
 * decisions, GET /users/:id and the portal's permission rules. Role ids only; which roles they
 * are, and what they allow, is the domain's role resolver (shared/domain/roles.ts).
 */
export interface UserInApplication {
  /** Undefined when no such user exists. */
  user: User | undefined;
  /** The application's metadata, when asked for (undefined also when it does not exist). */
  application: Application | undefined;
  rules: RoleRules;
  /** Role ids the user holds directly in the application. */
  directRoleIds: number[];
  /** The user's organizations, each with the role ids it holds in the application. */
  memberships: { membership: Membership; roleIds: number[] }[];
}

/**
 * How it is read, in two rounds whatever the user's organizations (docs/data-model.md):
 * 1. the user's partition (profile, memberships, direct authorizations) ‖ one consistent
 *    BatchGetItem of the application's catalogue summary (pattern 18), plus whatever the caller
 *    reads with it (the token, the application's metadata);
 * 2. only for a member of organizations: one BatchGetItem of the ORGROLES items (pattern 19)
 *    whose keys the memberships give (one call per 100 memberships, in parallel).
 * An application whose summaries predate them (until `npx idm migrate`) is read the old way in
 * round 2: the catalogue range and one Query per membership.
 */
async function read(
  db: Db,
  userId: number,
  appId: number,
  extra: ReturnType<typeof keys.token>[],
  expectedOrgIds: number[] = [],
) {
  // Organizations the caller expects the user to belong to (a Keyrock jwt token names those that
  // held roles when it was issued): their role items ride in the first round's batch.
  const expected = expectedOrgIds.map((orgId) => keys.orgRoles(appId, orgId));
  const [userItems, batch] = await Promise.all([
    queryPartition(db, keys.userPartition(userId)),
    batchGet(db, [keys.catalogue(appId), ...extra, ...expected], true),
  ]);
  const profile = userItems.find((i) => i.SK === keys.user(userId).SK);
  const direct = `${keys.userAuthorizationPrefix}${appId}#`;
  const memberships = profile
    ? userItems
        .filter((i) => (i.SK as string).startsWith(keys.membershipPrefix))
        .map(toMembership)
        .sort((a, b) => a.orgId - b.orgId)
    : [];
  const summary = rulesFromSummary(findItem(batch, keys.catalogue(appId)), appId);
  const [rules, orgRoles] = summary
    ? [summary, await summarisedOrgRoles(db, appId, memberships, batch, new Set(expectedOrgIds))]
    : await Promise.all([legacyRules(db, appId), legacyOrgRoles(db, appId, memberships)]);
  const found: UserInApplication = {
    user: profile ? toUser(profile) : undefined,
    application: undefined,
    rules,
    directRoleIds: userItems.filter((i) => (i.SK as string).startsWith(direct)).map(roleIdOf),
    memberships: memberships.map((membership, i) => ({ membership, roleIds: orgRoles[i]! })),
  };
  return { found, batch };
}

/** Role ids per membership; those already read in the first round (`readAlready`) are not read again. */
async function summarisedOrgRoles(
  db: Db,
  appId: number,
  memberships: Membership[],
  first: Item[] = [],
  readAlready: Set<number> = new Set(),
): Promise<number[][]> {
  const missing = memberships.filter((m) => !readAlready.has(m.orgId));
  const items =
    missing.length === 0
      ? first
      : [
          ...first,
          ...(await batchGet(
            db,
            missing.map((m) => keys.orgRoles(appId, m.orgId)),
            true,
          )),
        ];
  return memberships.map((m) => roleIdsFrom(findItem(items, keys.orgRoles(appId, m.orgId)), m.role));
}

async function legacyRules(db: Db, appId: number): Promise<RoleRules> {
  const catalogue = catalogueFrom(
    await queryPartitionFrom(db, keys.appPartition(appId), keys.appCatalogueStart),
  );
  // The same rule the summary keeps (`h`): a required service header only while it is in use.
  const permissions = catalogue.permissions.map((p) =>
    p.useServiceHeader && p.serviceHeader ? { ...p, requiredServiceHeader: p.serviceHeader } : p,
  );
  return { ...catalogue, permissions };
}

async function legacyOrgRoles(db: Db, appId: number, memberships: Membership[]): Promise<number[][]> {
  const app = keys.appPartition(appId);
  const per = await Promise.all(
    memberships.map((m) => queryPartition(db, app, `${keys.orgAuthorizationPrefix}${m.orgId}#`)),
  );
  return per.map((items, i) =>
    items.filter((item) => heldBy(item).includes(memberships[i]!.role)).map(roleIdOf),
  );
}

const roleIdOf = (item: Item) => item.roleId as number;

export async function userInApplication(
  db: Db,
  userId: number,
  appId: number,
  options: { withApplication?: boolean } = {},
): Promise<UserInApplication> {
  const { found, batch } = await read(
    db,
    userId,
    appId,
    options.withApplication ? [keys.application(appId)] : [],
  );
  const meta = options.withApplication ? findItem(batch, keys.application(appId)) : undefined;
  return { ...found, application: meta ? toApplication(meta) : undefined };
}

/**
 * A bearer token and a user in the token's application, read together: the token's value names
 * the application and the user (store/tokens.ts `tokenHint`), so the token is read in the same
 * BatchGetItem as the catalogue summary. The caller checks the token before using the rest.
 */
export async function tokenWithUserInApplication(
  db: Db,
  digest: string,
  userId: number,
  appId: number,
  holderId?: number,
  clientId?: string,
): Promise<{
  token: TokenRecord | undefined;
  found: UserInApplication;
  holder: User | undefined;
  client: Client | undefined;
}> {
  // Asking about someone else (GET /users/:id): the token's own user comes in the same batch, so
  // a disabled or deleted holder is seen without another round trip.
  const other = holderId !== undefined && holderId !== userId;
  const { found, batch } = await read(db, userId, appId, [
    keys.token(digest),
    ...(other ? [keys.user(holderId)] : []),
    // GET /user's `app_id`, with the applications it trusts (store/trusted.ts).
    ...(clientId !== undefined ? [keys.client(clientId)] : []),
  ]);
  const clientItem = clientId !== undefined ? findItem(batch, keys.client(clientId)) : undefined;
  const token = findItem(batch, keys.token(digest));
  const holderItem = other ? findItem(batch, keys.user(holderId)) : undefined;
  return {
    token: token ? toToken(token) : undefined,
    found,
    holder: other ? (holderItem ? toUser(holderItem) : undefined) : found.user,
    client: clientItem ? toClient(clientItem) : undefined,
  };
}

/**
 * A user in an application read together with a client item (GET /user with a Keyrock `jwt`
 * token: the token is verified with the client's secret, so nothing else is read for it), and the
 * role items of the organizations the token names: one round trip while the user's memberships are
 * those (a membership added since costs the second round's read of its roles).
 */
export async function userInApplicationWithClient(
  db: Db,
  userId: number,
  appId: number,
  clientId: string,
  expectedOrgIds: number[],
): Promise<{ found: UserInApplication; client: Client | undefined }> {
  const { found, batch } = await read(db, userId, appId, [keys.client(clientId)], expectedOrgIds);
  const clientItem = findItem(batch, keys.client(clientId));
  return { found, client: clientItem ? toClient(clientItem) : undefined };
}
