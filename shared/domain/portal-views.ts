import { forbidden, invalid } from '../errors.js';
import type { Grantee } from '../model.js';
import {
  type Application,
  appIdsOfOrganization,
  appIdsOfUser,
  applicationsByIds,
  type Owner,
} from '../store/applications.js';
import { authorize, granteesOf, rolesOf, setSingleRole, unauthorize } from '../store/authorizations.js';
import type { Db } from '../store/db.js';
import {
  getMembership,
  getOrganization,
  membershipsOfUser,
  organizationsByIds,
} from '../store/organizations.js';
import { roleCatalogue } from '../store/roles.js';
import type { Session } from '../store/sessions.js';
import type { RoleRules } from '../store/summaries.js';
import { getLogin, requireUser, type User, userIdByNick, usersByIds } from '../store/users.js';
import { jwtSecretForManager } from './jwt-secrets.js';
import { logoUrl } from './logo-url.js';
import { type OrgActor, organizationMembers } from './organizations.js';
import { applicationAccess } from './permissions-policy.js';
import * as v from './validate.js';

/**
 * What the portal API returns: plain JSON views assembled from the store, with the caller's
 * capabilities (`can`) so the portal hides what a person cannot do. Rules live in
 * permissions-policy.ts; this module only reads and shapes.
 */

export function userView(user: User) {
  return { id: user.id, email: user.email, nickName: user.nickName, displayName: user.displayName };
}

/** The signed-in user, whom they act for and the organizations they may act for. */
export async function sessionView(db: Db, session: Session) {
  const [user, memberships] = await Promise.all([
    requireUser(db, session.userId),
    membershipsOfUser(db, session.userId),
  ]);
  // A membership removed since the switch ends acting for that organization.
  const acting = memberships.find((m) => m.orgId === session.actingOrgId);
  return {
    // `admin`: the portal shows the administrator page's link (the API checks it on every call).
    user: { ...userView(user), admin: user.admin === true },
    csrfToken: session.csrfToken,
    acting: acting ? { kind: 'org', id: acting.orgId, name: acting.orgName } : { kind: 'user', id: user.id },
    organizations: memberships
      .map((m) => ({ id: m.orgId, name: m.orgName, role: m.role }))
      .sort((a, b) => a.id - b.id),
  };
}

/** Whom a new application belongs to: the organization the session acts for, else the user. */
export async function actingOwner(db: Db, session: Session): Promise<Owner> {
  if (session.actingOrgId !== undefined) {
    const membership = await getMembership(db, session.actingOrgId, session.userId);
    if (!membership) throw forbidden('You are no longer a member of the organization you act for.');
    return { kind: 'org', orgId: membership.orgId, actorId: membership.orgActorId };
  }
  return userOwner(db, session.userId);
}

export function applicationSummary(app: Application) {
  return {
    id: app.id,
    name: app.name,
    description: app.description,
    url: app.url,
    logoUrl: logoUrl(app.logoKey),
  };
}

/** A user as the owner of a new application (the CLI's `app create --owner`). */
export async function userOwner(db: Db, userId: number): Promise<Owner> {
  const user = await requireUser(db, userId);
  return { kind: 'user', userId: user.id, actorId: user.actorId };
}

/** The applications of whoever the session acts for. */
export async function applicationList(db: Db, session: Session) {
  const owner = await actingOwner(db, session);
  const ids =
    owner.kind === 'org' ? await appIdsOfOrganization(db, owner.orgId) : await appIdsOfUser(db, owner.userId);
  return (await applicationsByIds(db, ids)).map(applicationSummary);
}

export function applicationView(app: Application) {
  return {
    ...applicationSummary(app),
    callbackUrl: app.callbackUrl,
    clientId: app.clientId,
    grantTypes: app.grantTypes,
    accessTokenFormat: app.accessTokenFormat ?? 'opaque',
    postLogoutRedirectUris: app.postLogoutRedirectUris ?? [],
    tokenTypes: app.tokenTypes ?? [],
  };
}

/**
 * The application page: details always; roles, permissions and switches for those who may
 * manage them; authorized users and organizations for Provider and Purchaser.
 */
export async function applicationDetail(db: Db, userId: number, appId: number) {
  const access = await applicationAccess(db, userId, appId);
  const can = { manage: access.manage, authorize: access.authorize };
  if (!access.authorize) return { application: applicationSummary(access.app), can };
  // The page shows permissions with their names and descriptions: the catalogue range, once.
  const [catalogue, grantees, jwtSecret] = await Promise.all([
    roleCatalogue(db, appId),
    granteesOf(db, appId),
    // Keyrock's `jwt` token type: its secret, for the Provider who configures the PEP proxy.
    jwtSecretForManager(access),
  ]);
  const idsOf = (kind: 'user' | 'org') => grantees.filter((g) => g.kind === kind).map((g) => g.id);
  const [users, orgs] = await Promise.all([
    usersByIds(db, idsOf('user')),
    organizationsByIds(db, idsOf('org')),
  ]);
  const label = (kind: 'user' | 'org', id: number) => {
    const user = kind === 'user' ? users.get(id) : undefined;
    if (user) return `${user.displayName} <${user.email}>`;
    const org = kind === 'org' ? orgs.get(id) : undefined;
    return org ? org.name : `${kind === 'user' ? 'User' : 'Organization'} ${id}`;
  };
  return {
    application: { ...applicationView(access.app), ...(jwtSecret !== null ? { jwtSecret } : {}) },
    can,
    roles: catalogue.roles.map((r) => ({ id: r.id, name: r.name, builtIn: r.builtIn ?? null })),
    permissions: catalogue.permissions.map((p) => ({
      id: p.id,
      name: p.name,
      description: p.description,
      verb: p.verb,
      path: p.path,
    })),
    switches: Object.fromEntries([...catalogue.switches].map(([roleId, ids]) => [roleId, [...ids].sort()])),
    grantees: grantees
      .map((g) => ({
        kind: g.kind,
        id: g.id,
        label: label(g.kind, g.id),
        roleIds: g.roleIds.sort(),
        // Roles given through /v1 (or moved from Keyrock) to an organization's members or owners alone.
        only: Object.fromEntries(g.only),
      }))
      .sort((a, b) => a.kind.localeCompare(b.kind) || a.id - b.id),
  };
}

/** A user named by email (contains "@") or nickName; unknown → a field-level 400. */
export async function findUser(db: Db, value: unknown, field = 'user'): Promise<number> {
  const text = v.text(value, field, { max: 254 });
  const id = text.includes('@')
    ? (await getLogin(db, text.toLowerCase()))?.userId
    : await userIdByNick(db, text);
  if (id === undefined) throw invalid('No user has this email or nickName.', field);
  return id;
}

/** The grantee of an authorization request: `{user: email|nickName}` or `{organizationId}`. */
export async function granteeFrom(db: Db, body: Record<string, unknown>): Promise<Grantee> {
  if (body.organizationId !== undefined && body.organizationId !== '') {
    const orgId = v.positiveInt(body.organizationId, 'organizationId');
    if (!(await getOrganization(db, orgId))) throw invalid('No organization has this id.', 'organizationId');
    return { kind: 'org', id: orgId };
  }
  return { kind: 'user', id: await findUser(db, body.user) };
}

/** A role id that belongs to the application (from its catalogue, already read for the access check). */
export function roleOf(rules: RoleRules, value: unknown, field = 'roleId'): number {
  const roleId = v.positiveInt(value, field);
  if (!rules.roles.some((r) => r.id === roleId)) {
    throw invalid('This role does not exist in the application.', field);
  }
  return roleId;
}

export async function addGrantee(db: Db, appId: number, grantee: Grantee, roleId: number): Promise<void> {
  await authorize(db, appId, grantee, roleId);
}

export async function changeGrantee(db: Db, appId: number, grantee: Grantee, roleId: number): Promise<void> {
  await setSingleRole(db, appId, grantee, roleId);
}

/** Removes every role a grantee holds in the application. */
export async function removeGrantee(db: Db, appId: number, grantee: Grantee): Promise<void> {
  for (const roleId of await rolesOf(db, appId, grantee)) await unauthorize(db, appId, grantee, roleId);
}

export function granteeFromPath(kind: string, id: string): Grantee {
  if (kind !== 'user' && kind !== 'org') throw invalid('The grantee kind must be "user" or "org".', 'kind');
  return { kind, id: v.positiveInt(id, 'granteeId') };
}

/** An organization page for one of its members: profile, members with their names, the caller's role. */
export async function organizationDetail(db: Db, actor: OrgActor, orgId: number) {
  const { org, membership, members } = await organizationMembers(db, actor, orgId);
  const myRole = membership?.role ?? 'member';
  const users = await usersByIds(
    db,
    members.map((m) => m.userId),
  );
  return {
    organization: { id: org.id, name: org.name, description: org.description },
    myRole,
    can: { manageMembers: myRole === 'owner' },
    members: members.map((m) => {
      const u = users.get(m.userId);
      return {
        userId: m.userId,
        role: m.role,
        displayName: u?.displayName ?? `User ${m.userId}`,
        email: u?.email ?? '',
        nickName: u?.nickName ?? '',
      };
    }),
  };
}
