import { forbidden, invalid, invalidToken, notFound } from '../errors.js';
import { appIdsOfOrganization, appIdsOfUser, applicationsByIds } from '../store/applications.js';
import type { Db } from '../store/db.js';
import { getMembership } from '../store/organizations.js';
import type { TokenRecord } from '../store/tokens.js';
import { getActor } from '../store/users.js';
import { tokenAndRoles } from './access-tokens.js';
import { isKeyrockJwt, keyrockJwtAndRoles } from './keyrock-jwt.js';
import { decide, holdsAnyRole, type ResolvedRoles, resolveRoles } from './roles.js';
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

/** Client ids as /v1 checks them: anything else cannot name an application and is not read. */
const CLIENT_ID = /^[0-9A-Za-z_-]{1,64}$/;

/**
 * Keyrock's 401 bodies at GET /user (controllers/oauth2/oauth2.js, authenticate_token and
 * models/model_oauth_server.js search_user_info): `app_id` names no application; the token is
 * of an application that `app_id` does not trust (the body is a JSON string, as Keyrock sends it).
 */
export const UNKNOWN_APP_BODY = { message: 'Unauthorized', code: 401, title: 'Unauthorized' } as const;
export const UNTRUSTED_BODY = 'User not authorized in application';

/**
 * Keyrock's 401 for a token that is not valid (its oauth2-server's message, sent as a JSON string):
 * what GET /user answers for a `jwt` token whose signature or expiry does not hold.
 */
export const INVALID_TOKEN_BODY = 'Invalid token: access token is invalid';

type KeyrockApp = { app_id: string; trusted_apps: string[] };

/** GET /user's body for a user's token (before a decision); a Keyrock `jwt` token carries the same. */
export function userAnswer(r: ResolvedRoles, keyrock: KeyrockApp) {
  const user = userInfoBody(r);
  return { ...user, sub: user.id, username: r.user.displayName, ...keyrock };
}

/**
 * Keyrock's answer for an IoT agent (templates/oauth_response/oauth_iot_response.json): its id,
 * no name, and no roles (Keyrock assigns roles to users and organizations only).
 */
export function iotAgentAnswer(id: string, keyrock: KeyrockApp) {
  return { id, type: 'iot', displayName: '', roles: [], ...keyrock };
}

export interface UserAnswer {
  status: 200 | 401;
  body: unknown;
}

/**
 * GET /user (Keyrock, and Keyrock's PEP proxy on every request it guards): the token's user
 * with the roles they hold in the application asked about, and, with action + resource, a
 * permission decision. `app_id` (the client id the proxy guards) must be the token's application
 * or one that trusts it; the roles and the decision are then that application's, as Keyrock's
 * (search_user_info uses `req_app`). The body adds Keyrock 8's fields to Gatehouse's own:
 * `app_id` (the token's client id, which the proxy compares with its own and the trusted ones),
 * `trusted_apps` (those of `app_id`), `sub` and `username`.
 *
 * Round trips: the token's application asked about (the common case), as before: the client of
 * `app_id` is read in the first round trip with the token; a trusted other application costs the
 * role resolver's read of it on top. A Keyrock `jwt` token: one round trip (keyrock-jwt.ts).
 */
export async function currentUser(db: Db, bearer: string, query: Map<string, string>): Promise<UserAnswer> {
  const action = query.get('action');
  const resource = query.get('resource');
  const appClientId = query.get('app_id');
  // Keyrock's PEP proxy sends the service header a permission may require as this parameter.
  const header = query.get('authorization_service_header');
  if ((action === undefined) !== (resource === undefined)) {
    throw invalid('action and resource go together: send both or neither.');
  }
  const readable = appClientId !== undefined && CLIENT_ID.test(appClientId) ? appClientId : undefined;
  // Keyrock's `jwt` token type: checked with app_id's secret instead of read (keyrock-jwt.ts).
  const jwt =
    readable !== undefined && isKeyrockJwt(bearer)
      ? await keyrockJwtAndRoles(db, bearer, readable)
      : undefined;
  if (jwt === 'unknown-app') return { status: 401, body: UNKNOWN_APP_BODY };
  if (jwt === 'invalid') return { status: 401, body: INVALID_TOKEN_BODY };
  const { token, roles, appClient } = jwt ?? (await tokenAndRoles(db, bearer, undefined, readable));
  let trusted: string[] = [];
  let inApplication = roles;
  if (appClientId !== undefined) {
    if (!appClient) return { status: 401, body: UNKNOWN_APP_BODY };
    trusted = appClient.trusted ?? [];
    if (appClient.appId !== token.appId) {
      if (!trusted.includes(token.clientId)) return { status: 401, body: UNTRUSTED_BODY };
      if (token.userId !== undefined) inApplication = await resolveRoles(db, token.userId, appClient.appId);
    }
  }
  const keyrock = { app_id: token.clientId, trusted_apps: trusted };
  if (token.iotAgentId !== undefined) {
    const body = iotAgentAnswer(token.iotAgentId, keyrock);
    return { status: 200, body: action !== undefined ? { ...body, authorization_decision: 'Deny' } : body };
  }
  // A client's own token (client credentials): no user, as Keyrock's search_app_info.
  if (token.userId === undefined) return { status: 200, body: keyrock };
  if (!inApplication) throw invalidToken('The user of this access token no longer exists.');
  return {
    status: 200,
    body: {
      ...userAnswer(inApplication, keyrock),
      ...(action !== undefined
        ? { authorization_decision: decide(inApplication, action, resource!, header) }
        : {}),
    },
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
