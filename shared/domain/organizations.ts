import { conflict, notFound } from '../errors.js';
import type { MemberRole } from '../model.js';
import type { Db } from '../store/db.js';
import {
  createOrganization,
  getMembership,
  type Membership,
  type Organization,
  removeMember,
  setMember,
} from '../store/organizations.js';
import { organizationFields } from './validate.js';

/**
 * Organizations and their members (Keyrock's organization_roles `owner` and `member`). The
 * store keeps the rule that an organization always has an owner, in the same transaction as
 * the change.
 */
export function newOrganization(
  db: Db,
  ownerUserId: number,
  input: { name: unknown; description?: unknown },
): Promise<Organization> {
  return createOrganization(db, { ...organizationFields(input), ownerUserId });
}

/** Adds a user who is not a member yet. */
export async function addMember(
  db: Db,
  orgId: number,
  userId: number,
  role: MemberRole,
): Promise<Membership> {
  if (await getMembership(db, orgId, userId)) throw conflict('This user is already a member.', 'user');
  return setMember(db, orgId, userId, role);
}

/** Changes a member's role; a non-member is 404. */
export async function changeMember(
  db: Db,
  orgId: number,
  userId: number,
  role: MemberRole,
): Promise<Membership> {
  if (!(await getMembership(db, orgId, userId))) throw notFound('This user is not a member.');
  return setMember(db, orgId, userId, role);
}

/** Adds a member or changes their role, whichever applies (the CLI's `org add-member`). */
export function putMember(db: Db, orgId: number, userId: number, role: MemberRole): Promise<Membership> {
  return setMember(db, orgId, userId, role);
}

export function dropMember(db: Db, orgId: number, userId: number): Promise<void> {
  return removeMember(db, orgId, userId);
}
