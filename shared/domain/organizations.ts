import { conflict, forbidden, notFound } from '../errors.js';
import type { MemberRole } from '../model.js';
import { importedIds } from '../store/aliases.js';
import type { Db } from '../store/db.js';
import {
  createOrganization,
  deleteOrganization,
  getMembership,
  type Membership,
  membershipsOfUser,
  membersOfOrganization,
  type Organization,
  organizationsByIds,
  organizationWithMembership,
  removeMember,
  setMember,
  updateOrganization,
} from '../store/organizations.js';
import type { ApiCaller } from './api-tokens.js';
import { organizationFields, profileFields } from './validate.js';

/**
 * Organizations and their members (Keyrock's organization_roles `owner` and `member`). Every
 * operation is one function here, used by the portal (`/api/organizations…`), Keyrock's API
 * (`/v1/organizations…`) and the CLI alike, and each checks who may do it: an owner manages the
 * organization and its members, a member reads them, an administrator (`/v1` callers whose user
 * has `admin`) does everything. The store keeps the rule that an organization always has an
 * owner, in the same transaction as the change.
 */
export interface OrgActor {
  userId: number;
  /** Keyrock's administrator flag; the portal passes none (no administrator powers there). */
  admin?: boolean | undefined;
}

/** A /v1 caller as an actor: its user, with the administrator flag Keyrock gives it. */
export const apiActor = (caller: ApiCaller): OrgActor => ({
  userId: caller.user.id,
  admin: caller.user.admin === true,
});

// Keyrock's words for these refusals (controllers/api/organizations.js and its assignments), so
// scripts that match on them keep working; the portal shows the same sentence.
const NOT_ALLOWED = 'User not allow to perform the action';
const ORG_NOT_FOUND = 'Organization not found';

export interface OrganizationAccess {
  org: Organization;
  /** The actor's own membership; absent for an administrator who is not a member. */
  membership?: Membership | undefined;
}

/**
 * The organization with the actor's membership (one BatchGetItem), or Keyrock's 404 for an
 * unknown organization and 403 for a user who is not a member (`member`) or not an owner
 * (`owner`). Administrators pass both checks.
 */
async function access(db: Db, actor: OrgActor, orgId: number, need: MemberRole): Promise<OrganizationAccess> {
  const { org, membership } = await organizationWithMembership(db, orgId, actor.userId);
  if (!org) throw notFound(ORG_NOT_FOUND);
  if (actor.admin === true) return { org, membership };
  if (!membership || (need === 'owner' && membership.role !== 'owner')) throw forbidden(NOT_ALLOWED);
  return { org, membership };
}

const KEYROCK_ID = /^[0-9a-zA-Z][0-9a-zA-Z_-]{0,63}$/;

/**
 * An organization id as /v1 paths carry it: Gatehouse's integer id in decimal, or the UUID
 * Keyrock gave an organization moved by `idm import keyrock` (one GetItem on its alias, pattern
 * 22). Anything else, or an id nobody has, is Keyrock's 404.
 */
export async function organizationIdParam(db: Db, raw: string): Promise<number> {
  if (/^\d{1,15}$/.test(raw)) {
    const id = Number(raw);
    if (id < 1) throw notFound(ORG_NOT_FOUND);
    return id;
  }
  if (!KEYROCK_ID.test(raw)) throw notFound(ORG_NOT_FOUND);
  const found = (await importedIds(db, 'organization', [raw])).get(raw);
  if (found === undefined) throw notFound(ORG_NOT_FOUND);
  return found;
}

/** Any signed-in user creates an organization and becomes its first owner. */
export function newOrganization(
  db: Db,
  ownerUserId: number,
  input: { name: unknown; description?: unknown; website?: unknown },
): Promise<Organization> {
  const website = input.website === undefined ? undefined : profileFields({ website: input.website }).website;
  return createOrganization(db, { ...organizationFields(input), website, ownerUserId });
}

export interface OwnOrganization {
  role: MemberRole;
  org: Organization;
}

/**
 * The organizations a user belongs to, with their role in each, by id: the memberships from the
 * user's partition, then the profiles in one BatchGetItem (two round trips). As in Keyrock, only
 * one's own organizations, administrators included.
 */
export async function organizationsOf(db: Db, userId: number): Promise<OwnOrganization[]> {
  const memberships = await membershipsOfUser(db, userId);
  const orgs = await organizationsByIds(
    db,
    memberships.map((m) => m.orgId),
  );
  return memberships
    .flatMap((m) => {
      const org = orgs.get(m.orgId);
      return org ? [{ role: m.role, org }] : [];
    })
    .sort((a, b) => a.org.id - b.org.id);
}

/** One organization's profile, for its members (and administrators). */
export async function readOrganization(db: Db, actor: OrgActor, orgId: number): Promise<Organization> {
  return (await access(db, actor, orgId, 'member')).org;
}

export interface OrganizationChanges {
  name?: unknown;
  description?: unknown;
  website?: unknown;
}

export type ChangedOrgField = 'name' | 'description' | 'website';

/**
 * Owners (and administrators) change the name, description or website, validated as at
 * creation. Returns the organization after the change and the fields that changed.
 */
export async function changeOrganization(
  db: Db,
  actor: OrgActor,
  orgId: number,
  input: OrganizationChanges,
): Promise<{ org: Organization; changed: ChangedOrgField[] }> {
  const { org } = await access(db, actor, orgId, 'owner');
  const fields = organizationFields({
    name: input.name ?? org.name,
    description: input.description ?? org.description,
  });
  const website = input.website === undefined ? undefined : profileFields({ website: input.website }).website;
  const changes = {
    name: fields.name !== org.name ? fields.name : undefined,
    description: fields.description !== org.description ? fields.description : undefined,
    website: website !== undefined && website !== (org.website ?? '') ? website : undefined,
  };
  const changed = (Object.keys(changes) as ChangedOrgField[]).filter((k) => changes[k] !== undefined);
  if (changed.length === 0) return { org, changed };
  return { org: await updateOrganization(db, org, changes), changed };
}

/**
 * Owners (and administrators) delete an organization: its memberships, its roles in every
 * application and their summaries go with it (shared/store/organizations.ts).
 */
export async function removeOrganization(db: Db, actor: OrgActor, orgId: number): Promise<void> {
  const { org } = await access(db, actor, orgId, 'owner');
  await deleteOrganization(db, org);
}

/** The members of an organization with their roles, by user id (members and administrators). */
export async function organizationMembers(
  db: Db,
  actor: OrgActor,
  orgId: number,
): Promise<OrganizationAccess & { members: Membership[] }> {
  const [found, members] = await Promise.all([
    access(db, actor, orgId, 'member'),
    membersOfOrganization(db, orgId),
  ]);
  return { ...found, members };
}

/** One user's membership (members and administrators); Keyrock's 404 when the user is not one. */
export async function memberOf(db: Db, actor: OrgActor, orgId: number, userId: number): Promise<Membership> {
  const found = await access(db, actor, orgId, 'member');
  const membership = userId === actor.userId ? found.membership : await getMembership(db, orgId, userId);
  if (!membership) throw notFound('Assignment not found');
  return membership;
}

/**
 * The portal's "add member": owners only, and a user who is a member already is 409. The user is
 * looked up (by email or nickName) only after the owner check, so someone who is not an owner
 * cannot use this route to learn whether an address has an account.
 */
export async function addMember(
  db: Db,
  actor: OrgActor,
  orgId: number,
  findUserId: () => Promise<number>,
  role: MemberRole,
): Promise<Membership> {
  await access(db, actor, orgId, 'owner');
  const userId = await findUserId();
  if (await getMembership(db, orgId, userId)) throw conflict('This user is already a member.', 'user');
  return setMember(db, orgId, userId, role);
}

/** The portal's "change role": owners only; a user who is not a member is 404. */
export async function changeMember(
  db: Db,
  actor: OrgActor,
  orgId: number,
  userId: number,
  role: MemberRole,
): Promise<Membership> {
  await access(db, actor, orgId, 'owner');
  if (!(await getMembership(db, orgId, userId))) throw notFound('This user is not a member.');
  return setMember(db, orgId, userId, role);
}

/**
 * Keyrock's PUT (and deprecated POST) of an organization role: owners (and administrators) add
 * the user with that role, or change the role of a member. The last owner cannot become a
 * member (400), unlike in Keyrock, which leaves the organization ownerless.
 */
export async function assignMember(
  db: Db,
  actor: OrgActor,
  orgId: number,
  userId: number,
  role: MemberRole,
): Promise<Membership> {
  await access(db, actor, orgId, 'owner');
  return setMember(db, orgId, userId, role);
}

/** `idm org add-member`: adds a member or changes their role, with no one to check. */
export function putMember(db: Db, orgId: number, userId: number, role: MemberRole): Promise<Membership> {
  return setMember(db, orgId, userId, role);
}

/**
 * Removes a member (owners and administrators). With `role`, as Keyrock's DELETE of an
 * organization role, only a member holding that role is removed; anyone else is 404.
 */
export async function dropMember(
  db: Db,
  actor: OrgActor,
  orgId: number,
  userId: number,
  role?: MemberRole,
): Promise<void> {
  await access(db, actor, orgId, 'owner');
  if (role !== undefined) {
    const current = await getMembership(db, orgId, userId);
    if (current?.role !== role) throw notFound('Assignments not found');
  }
  await removeMember(db, orgId, userId);
}
