import { AppError } from '../errors.js';
import { type Grantee, MEMBER_ROLES, type MemberRole } from '../model.js';
import { type AgentKind, getAgent, putIotAgent, putPepProxy } from '../store/agents.js';
import { getApplication, getClient, type Owner } from '../store/applications.js';
import { granteesOf, setOrgRoleHolder } from '../store/authorizations.js';
import { putConsent } from '../store/consents.js';
import type { Db } from '../store/db.js';
import { getOrganization } from '../store/organizations.js';
import { type Permission, roleCatalogue } from '../store/roles.js';
import { addTrusted, MAX_TRUSTED } from '../store/trusted.js';
import { getUser } from '../store/users.js';
import { registerCheckedApplication } from './applications.js';
import { addCheckedPermission, addRole, type PermissionFields, switchPermission } from './catalogue.js';
import type { Outcome } from './keyrock-import.js';
import { replaceLogo } from './logo.js';
import { addGrantee } from './portal-views.js';
import type { applicationFields } from './validate.js';

/**
 * Writing the applications `idm import keyrock` read (shared/keyrock/import-app-rows.ts) through
 * the functions the portal and /v1 use: registration with the client id and secret Keyrock
 * issued, roles and permissions claiming their Keyrock ids in their own transactions, switches,
 * role assignments, consents and logos. Every write is keyed by what it moves (the client id,
 * the Keyrock id, the grantee and role), so a second run, or a resumed one, writes nothing twice.
 */

const reasonOf = (error: unknown, fallback: string) => (error instanceof AppError ? error.message : fallback);

/**
 * Whom a moved application belongs to: the first grantee holding Keyrock's Provider role in it
 * that was imported (Keyrock has no owner column; whoever created an application holds Provider).
 */
export async function applicationOwner(db: Db, candidates: Grantee[]): Promise<Owner | undefined> {
  for (const grantee of candidates) {
    if (grantee.kind === 'user') {
      const user = await getUser(db, grantee.id);
      if (user) return { kind: 'user', userId: user.id, actorId: user.actorId };
    } else {
      const org = await getOrganization(db, grantee.id);
      if (org) return { kind: 'org', orgId: org.id, actorId: org.actorId };
    }
  }
  return undefined;
}

/**
 * An application with the client id and secret Keyrock issued; the secret is stored as the
 * digest every registration stores (shared/domain/applications.ts), the `jwt_secret` sealed as
 * every jwt secret is (jwt-secrets.ts). A client id already registered is an application
 * imported before.
 */
export async function importApplication(
  db: Db,
  moved: {
    clientId: string;
    clientSecret: string;
    fields: ReturnType<typeof applicationFields>;
    jwtSecret: string | null;
    owner: Owner | undefined;
  },
  dryRun: boolean,
): Promise<Outcome> {
  if (!moved.owner) return { written: false, reason: 'nobody holding its Provider role was imported' };
  if (dryRun) return { written: true, id: 0 };
  try {
    const { app } = await registerCheckedApplication(db, moved.owner, moved.fields, {
      clientId: moved.clientId,
      clientSecret: moved.clientSecret,
      jwtSecret: moved.jwtSecret,
    });
    return { written: true, id: app.id };
  } catch (error) {
    if (error instanceof AppError && error.field === 'clientId')
      return { written: false, reason: 'imported before' };
    if (error instanceof AppError) return { written: false, reason: error.message };
    throw error;
  }
}

/**
 * An application's logo from the image file Keyrock kept, processed as an upload is (a 256×256
 * PNG in the logo bucket). An application that has a logo keeps it, so a second run uploads
 * nothing; one whose run stopped between the application and its logo gets it now.
 */
export async function importLogo(db: Db, appId: number, bytes: Buffer, dryRun: boolean): Promise<Outcome> {
  const app = appId === 0 ? undefined : await getApplication(db, appId);
  if (app?.logoKey) return { written: false, reason: 'has a logo already', id: appId };
  if (dryRun) return { written: true, id: appId };
  if (!app) return { written: false, reason: 'application not imported' };
  try {
    await replaceLogo(db, app, bytes, undefined);
    return { written: true, id: appId };
  } catch (error) {
    return { written: false, reason: reasonOf(error, 'the image could not be stored') };
  }
}

/** A role of the application's own, claiming its Keyrock id with it. */
export async function importRole(
  db: Db,
  appId: number,
  keyrockId: string,
  name: string,
  dryRun: boolean,
): Promise<Outcome> {
  if (dryRun) return { written: true, id: 0 };
  try {
    const role = await addRole(db, appId, name, keyrockId);
    return { written: true, id: role.id };
  } catch (error) {
    if (error instanceof AppError && error.field === 'keyrockId')
      return { written: false, reason: 'imported before' };
    if (error instanceof AppError) return { written: false, reason: error.message };
    throw error;
  }
}

/** A permission checked by Keyrock's rules, claiming its Keyrock id with it. */
export async function importPermission(
  db: Db,
  appId: number,
  keyrockId: string,
  fields: PermissionFields,
  dryRun: boolean,
): Promise<Outcome> {
  if (dryRun) return { written: true, id: 0 };
  try {
    const permission: Permission = await addCheckedPermission(db, appId, fields, keyrockId);
    return { written: true, id: permission.id };
  } catch (error) {
    if (error instanceof AppError && error.field === 'keyrockId')
      return { written: false, reason: 'imported before' };
    if (error instanceof AppError) return { written: false, reason: error.message };
    throw error;
  }
}

/** A permission switched on for a role (both of the application's own); on already is a skip. */
export async function importRolePermission(
  db: Db,
  appId: number,
  roleId: number,
  permissionId: number,
  alreadyOn: boolean,
  dryRun: boolean,
): Promise<Outcome> {
  if (alreadyOn) return { written: false, reason: 'switched on before', id: roleId };
  if (dryRun) return { written: true, id: roleId };
  await switchPermission(db, appId, roleId, permissionId, true);
  return { written: true, id: roleId };
}

/**
 * A role given to a user (through the portal's authorization write) or to an organization's
 * members or owners (`holder`, Keyrock's `role_organization`, through /v1's write).
 */
export async function importAssignment(
  db: Db,
  appId: number,
  grantee: Grantee,
  roleId: number,
  held: boolean,
  dryRun: boolean,
  holder?: MemberRole,
): Promise<Outcome> {
  if (held) return { written: false, reason: 'holds this role already', id: roleId };
  if (dryRun) return { written: true, id: roleId };
  try {
    if (grantee.kind === 'org' && holder) await setOrgRoleHolder(db, appId, grantee.id, roleId, holder, true);
    else await addGrantee(db, appId, grantee, roleId);
    return { written: true, id: roleId };
  } catch (error) {
    if (error instanceof AppError) return { written: false, reason: error.message };
    throw error;
  }
}

/**
 * A user's authorization of an application (Keyrock's `user_authorized_application`): the
 * consent /oauth2/authorize reads, so the user is not asked again. An existing one stays.
 */
export async function importConsent(
  db: Db,
  userId: number,
  appId: number,
  approvedAt: string | undefined,
  dryRun: boolean,
): Promise<Outcome> {
  if (dryRun) return { written: true, id: appId };
  const written = await putConsent(db, userId, appId, { approvedAt, onlyNew: true });
  return written ? { written: true, id: appId } : { written: false, reason: 'consented before', id: appId };
}

/**
 * A PEP proxy or IoT agent with the id and password hash Keyrock stored (HMAC-SHA1 with its
 * salt), which its first successful sign-in turns into bcrypt (shared/domain/agents.ts).
 */
export async function importAgent(
  db: Db,
  kind: AgentKind,
  agent: { id: string; appId: number; clientId: string; passwordHash: string },
  dryRun: boolean,
): Promise<Outcome> {
  const before = agent.appId === 0 ? undefined : await getAgent(db, kind, agent.id);
  if (before) {
    return before.appId === agent.appId
      ? { written: false, reason: 'imported before', id: agent.appId }
      : { written: false, reason: 'the id belongs to another application' };
  }
  if (dryRun) return { written: true, id: agent.appId };
  try {
    await (kind === 'pep' ? putPepProxy(db, agent) : putIotAgent(db, agent));
    return { written: true, id: agent.appId };
  } catch (error) {
    if (error instanceof AppError && error.field === 'id')
      return { written: false, reason: 'imported before' };
    if (error instanceof AppError && error.kind === 'conflict')
      return { written: false, reason: 'the application has a PEP proxy already' };
    throw error;
  }
}

/** `clientId` trusts `trustedClientId` (GET /user?app_id=), as Keyrock's trusted_application row. */
export async function importTrusted(
  db: Db,
  clientId: string,
  trustedClientId: string,
  dryRun: boolean,
): Promise<Outcome> {
  const list = (await getClient(db, clientId))?.trusted ?? [];
  if (list.includes(trustedClientId)) return { written: false, reason: 'trusted before' };
  if (list.length >= MAX_TRUSTED)
    return { written: false, reason: `the application trusts ${MAX_TRUSTED} applications already` };
  if (dryRun) return { written: true, id: 0 };
  return (await addTrusted(db, clientId, trustedClientId))
    ? { written: true, id: 0 }
    : { written: false, reason: 'trusted before' };
}

/** The Gatehouse id of an application registered with this client id (imported before), if any. */
export async function importedApplication(db: Db, clientId: string): Promise<number | undefined> {
  return (await getClient(db, clientId))?.appId;
}

/** What the import needs to know of an application it writes roles, switches and grants into. */
export interface ApplicationState {
  /** Gatehouse's Provider and Purchaser role ids in this application. */
  builtIn: Map<string, number>;
  /** roleId → permission ids switched on */
  switches: Map<number, Set<number>>;
  /** `user:<id>:<roleId>` and `org:<id>:<roleId>:<member|owner>` of every grant held */
  held: Set<string>;
}

export const heldKey = (grantee: Grantee, roleId: number, holder?: MemberRole) =>
  `${grantee.kind}:${grantee.id}:${roleId}${holder ? `:${holder}` : ''}`;

/** One read of an application's catalogue range and its grantees (two queries). */
export async function applicationState(db: Db, appId: number): Promise<ApplicationState> {
  if (appId === 0) return { builtIn: new Map(), switches: new Map(), held: new Set() };
  const [catalogue, grantees] = await Promise.all([roleCatalogue(db, appId), granteesOf(db, appId)]);
  const builtIn = new Map<string, number>();
  for (const role of catalogue.roles) if (role.builtIn) builtIn.set(role.builtIn, role.id);
  const held = new Set<string>();
  for (const g of grantees) {
    for (const r of g.roleIds) {
      if (g.kind === 'user') held.add(heldKey(g, r));
      else {
        const only = g.only.get(r);
        for (const holder of only ? [only] : MEMBER_ROLES) held.add(heldKey(g, r, holder));
      }
    }
  }
  return { builtIn, switches: catalogue.switches, held };
}
