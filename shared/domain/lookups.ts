import { forbidden, invalid, notFound } from '../errors.js';
import { invalidToken } from '../oauth/errors.js';
import { applicationsByIds } from '../store/applications.js';
import type { Db } from '../store/db.js';
import { keys } from '../store/keys.js';
import { batchGet, type Item, queryGsi1, queryPartition, queryPartitionFrom } from '../store/ops.js';
import type { TokenRecord } from '../store/tokens.js';
import { decide } from './decisions.js';
import { holdsAnyRole, userInApp, userInfoBody, userRecordBody } from './user-info.js';
import { positiveInt } from './validate.js';

/**
 * What the lookups need about a user in an application, in at most two rounds:
 * 1. the user's partition (profile, memberships, direct authorizations) ‖ the application's role
 *    catalogue (permissions, roles, switches) — not its whole partition, whose organization
 *    authorizations grow with every organization in the application;
 * 2. only for a member of organizations: the roles each of those organizations holds in the
 *    application, one small Query per membership, in parallel.
 * So the work grows with what the answer carries, not with the size of the application.
 */
async function lookupItems(db: Db, userId: number, appId: number): Promise<[Item[], Item[]]> {
  const app = keys.appPartition(appId);
  const [userItems, catalogue] = await Promise.all([
    queryPartition(db, keys.userPartition(userId)),
    queryPartitionFrom(db, app, keys.appCatalogueStart),
  ]);
  const orgIds = userItems
    .filter((i) => (i.SK as string).startsWith(keys.membershipPrefix))
    .map((i) => i.orgId as number);
  const orgRoles = await Promise.all(
    orgIds.map((orgId) => queryPartition(db, app, `${keys.orgAuthorizationPrefix}${orgId}#`)),
  );
  return [userItems, [...catalogue, ...orgRoles.flat()]];
}

/**
 * GET /user (Keyrock): the token's user with roles in the token's application, and, with
 * action + resource, a permission decision. Round trips after the token's GetItem: one for a
 * user in no organization, two for a member of organizations (see lookupItems).
 */
export async function currentUser(db: Db, token: TokenRecord, query: Map<string, string>) {
  const action = query.get('action');
  const resource = query.get('resource');
  const appId = query.get('app_id');
  if ((action === undefined) !== (resource === undefined)) {
    throw invalid('action and resource go together: send both or neither.');
  }
  // A PEP proxy names its application; a token of another application gives it no answer.
  if (appId !== undefined && appId !== token.clientId) {
    throw invalidToken('The access token was not issued for application app_id.');
  }
  if (token.userId === undefined) return {}; // client credentials: no user (Keyrock answers {})
  const [userItems, appItems] = await lookupItems(db, token.userId, token.appId);
  const info = userInApp(userItems, appItems, token.appId);
  if (!info) throw invalidToken('The user of this access token no longer exists.');
  return {
    ...userInfoBody(info),
    ...(action !== undefined ? { authorization_decision: decide(info, action, resource!) } : {}),
  };
}

/**
 * GET /users/:id: a token may read its own user, and any user who holds a role in the token's
 * application (directly or through an organization); anyone else looks like an unknown id (404),
 * so the endpoint cannot be used to probe who exists.
 */
export async function userById(db: Db, token: TokenRecord, rawId: string) {
  if (!/^\d{1,15}$/.test(rawId)) throw invalid('The user id must be an integer.', 'id');
  const userId = positiveInt(rawId, 'id');
  const [userItems, appItems] = await lookupItems(db, userId, token.appId);
  const info = userInApp(userItems, appItems, token.appId);
  if (!info || (token.userId !== userId && !holdsAnyRole(info))) {
    throw notFound(`User ${userId} does not exist.`);
  }
  return userRecordBody(info);
}

/**
 * GET /applications.json?actor_id=: the applications in which an actor (user or organization)
 * holds a role. The token's user must be that user, or a member of that organization.
 */
export async function applicationsOfActor(
  db: Db,
  rawActorId: string | undefined,
  readToken: () => Promise<TokenRecord>,
) {
  if (rawActorId === undefined || !/^\d{1,15}$/.test(rawActorId)) {
    throw invalid('actor_id is required and must be an integer.', 'actor_id');
  }
  const actorId = positiveInt(rawActorId, 'actor_id');
  // The token and the actor are read in parallel: one round trip.
  const [token, [actor]] = await Promise.all([readToken(), batchGet(db, [keys.actor(actorId)])]);
  if (!actor) throw notFound(`Actor ${actorId} does not exist.`);
  const id = actor.id as number;
  let appIds: number[];
  if (actor.kind === 'user') {
    if (token.userId !== id) throw forbidden('This token may only list its own user\u2019s applications.');
    const items = await queryPartition(db, keys.userPartition(id), keys.userAuthorizationPrefix);
    appIds = items.map((i) => i.appId as number);
  } else {
    if (token.userId === undefined)
      throw forbidden('This token has no user, who must be a member of the organization.');
    const [membership, authorizations] = await Promise.all([
      batchGet(db, [keys.membership(id, token.userId)]),
      queryGsi1(db, keys.orgAppsPartition(id)),
    ]);
    if (membership.length === 0)
      throw forbidden('The token\u2019s user is not a member of this organization.');
    appIds = authorizations.map((i) => i.appId as number);
  }
  const apps = await applicationsByIds(db, [...new Set(appIds)]);
  return apps.map((a) => ({ id: a.id, name: a.name, description: a.description, url: a.url }));
}
