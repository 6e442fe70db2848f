import { forbidden, invalid, invalidToken, notFound } from '../errors.js';
import { appIdsOfOrganization, appIdsOfUser, applicationsByIds } from '../store/applications.js';
import type { Db } from '../store/db.js';
import { getMembership } from '../store/organizations.js';
import type { TokenRecord } from '../store/tokens.js';
import { getActor } from '../store/users.js';
import { tokenAndRoles } from './access-tokens.js';
import { decide, holdsAnyRole, type ResolvedRoles } from './roles.js';
import { positiveInt } from './validate.js';

/**
 * Keyrock's classic lookups. GET /user and GET /users/:id read the token together with the user
 * and the application's catalogue, then, for a member of organizations, their roles: two round
 * trips at most (docs/data-model.md, shared/domain/access-tokens.ts).
 */

const role = (r: { id: number; name: string }) => ({ id: r.id, name: r.name });

/**
 * The roles a user holds in the application, directly and through each organization, as GET
 * /user shows them (organizations carry `name`); OIDC UserInfo releases the same.
 */
export function keyrockRoles(r: ResolvedRoles) {
  return {
    roles: r.direct.map(role),
    organizations: r.memberships.map((m) => ({
      // Moved from Keyrock: the id Keyrock's clients stored (docs/api.md, GET /user).
      id: m.membership.orgKeyrockId ?? m.membership.orgId,
      name: m.membership.orgName,
      roles: m.roles.map(role),
    })),
  };
}

/** GET /user's body (Keyrock shape: organizations carry `name`, no actorId, no nickName). */
function userInfoBody(r: ResolvedRoles) {
  return {
    id: r.user.keyrockId ?? r.user.id,
    displayName: r.user.displayName,
    email: r.user.email,
    ...keyrockRoles(r),
  };
}

/** GET /users/:id's body (Keyrock shape: with actorId and nickName; organizations carry displayName). */
function userRecordBody(r: ResolvedRoles) {
  return {
    id: r.user.id,
    actorId: r.user.actorId,
    nickName: r.user.nickName,
    displayName: r.user.displayName,
    email: r.user.email,
    roles: r.direct.map(role),
    organizations: r.memberships.map((m) => ({
      id: m.membership.orgId,
      actorId: m.membership.orgActorId,
      displayName: m.membership.orgName,
      roles: m.roles.map(role),
    })),
  };
}

/**
 * GET /user (Keyrock): the token's user with roles in the token's application, and, with
 * action + resource, a permission decision.
 */
export async function currentUser(db: Db, bearer: string, query: Map<string, string>) {
  const action = query.get('action');
  const resource = query.get('resource');
  const appId = query.get('app_id');
  // Keyrock's PEP proxy sends the service header a permission may require as this parameter.
  const header = query.get('authorization_service_header');
  if ((action === undefined) !== (resource === undefined)) {
    throw invalid('action and resource go together: send both or neither.');
  }
  const { token, roles: resolved } = await tokenAndRoles(db, bearer);
  // A PEP proxy names its application; a token of another application gives it no answer.
  if (appId !== undefined && appId !== token.clientId) {
    throw invalidToken('The access token was not issued for application app_id.');
  }
  if (token.userId === undefined) return {}; // client credentials: no user (Keyrock answers {})
  if (!resolved) throw invalidToken('The user of this access token no longer exists.');
  return {
    ...userInfoBody(resolved),
    ...(action !== undefined ? { authorization_decision: decide(resolved, action, resource!, header) } : {}),
  };
}

/**
 * GET /users/:id: a token may read its own user, and any user who holds a role in the token's
 * application (directly or through an organization); anyone else looks like an unknown id (404),
 * so the endpoint cannot be used to probe who exists.
 */
export async function userById(db: Db, bearer: string, rawId: string) {
  if (!/^\d{1,15}$/.test(rawId)) throw invalid('The user id must be an integer.', 'id');
  const userId = positiveInt(rawId, 'id');
  const { token, roles: resolved } = await tokenAndRoles(db, bearer, userId);
  if (!resolved || (token.userId !== userId && !holdsAnyRole(resolved))) {
    throw notFound(`User ${userId} does not exist.`);
  }
  return userRecordBody(resolved);
}

/**
 * GET /applications.json?actor_id=: the applications in which an actor (user or organization)
 * holds a role. The token's user must be that user, or a member of that organization. The token
 * (already being read) and the actor are read in parallel: one round trip.
 */
export async function applicationsOfActor(
  db: Db,
  rawActorId: string | undefined,
  pendingToken: Promise<TokenRecord>,
) {
  if (rawActorId === undefined || !/^\d{1,15}$/.test(rawActorId)) {
    throw invalid('actor_id is required and must be an integer.', 'actor_id');
  }
  const actorId = positiveInt(rawActorId, 'actor_id');
  const [token, actor] = await Promise.all([pendingToken, getActor(db, actorId)]);
  if (!actor) throw notFound(`Actor ${actorId} does not exist.`);
  let appIds: number[];
  if (actor.kind === 'user') {
    if (token.userId !== actor.id)
      throw forbidden('This token may only list its own user\u2019s applications.');
    appIds = await appIdsOfUser(db, actor.id);
  } else {
    if (token.userId === undefined)
      throw forbidden('This token has no user, who must be a member of the organization.');
    const [membership, orgAppIds] = await Promise.all([
      getMembership(db, actor.id, token.userId),
      appIdsOfOrganization(db, actor.id),
    ]);
    if (!membership) throw forbidden('The token\u2019s user is not a member of this organization.');
    appIds = orgAppIds;
  }
  const apps = await applicationsByIds(db, appIds);
  return apps.map((a) => ({ id: a.id, name: a.name, description: a.description, url: a.url }));
}
