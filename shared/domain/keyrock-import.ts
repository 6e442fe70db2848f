import { AppError } from '../errors.js';
import type { MemberRole } from '../model.js';
import { importedIds } from '../store/aliases.js';
import type { Db } from '../store/db.js';
import type { KeyrockKind } from '../store/keys.js';
import { createOrganization, getMembership, setMember } from '../store/organizations.js';
import { createWithDerivedNick } from './accounts.js';
import * as v from './validate.js';

/**
 * Writing what `idm import keyrock` read, through the same store functions the service uses.
 * Each record claims its Keyrock id in its own transaction (store/aliases.ts), so a second run,
 * or a run started again after an interruption, writes nothing twice. Every function answers
 * what it did: written, or skipped and why, so the run can report each skip.
 */
export type Outcome =
  | { written: true; id: number; notes?: string[] }
  | { written: false; reason: string; id?: number };

/** A Keyrock user as the importer hands it over (its password hash already in Gatehouse's stored form). */
export interface MovedUser {
  keyrockId: string;
  email: string;
  username: string;
  passwordHash: string;
  admin: boolean;
  description: string | null;
  website: string | null;
  datePassword: string | undefined;
}

export interface MovedOrganization {
  keyrockId: string;
  name: string;
  description: string | null;
  /** Keyrock ids of its owners and members (owners first; an organization needs one owner). */
  ownerKeyrockIds: string[];
}

export const alreadyImported = (db: Db, kind: KeyrockKind, keyrockIds: string[]) =>
  importedIds(db, kind, keyrockIds);

const reasonOf = (error: unknown) => (error instanceof AppError ? error.message : undefined);

/**
 * Keyrock allows longer free texts than Gatehouse and any website string; a user is never lost
 * for them: a description is cut to Gatehouse's limit and a website that is not an http(s) URL
 * is left out, each with a note in the summary.
 */
function profile(user: MovedUser, notes: string[]) {
  let description = user.description ?? '';
  if (description.length > v.LIMITS.userDescription) {
    description = description.slice(0, v.LIMITS.userDescription);
    notes.push(`description cut to ${v.LIMITS.userDescription} characters`);
  }
  let website = '';
  if (user.website) {
    try {
      website = v.httpUrl(user.website, 'website');
    } catch {
      notes.push('website left out: not an http(s) URL');
    }
  }
  return { description, website };
}

export async function importUser(db: Db, user: MovedUser, dryRun: boolean): Promise<Outcome> {
  let email: string;
  let displayName: string;
  try {
    email = v.email(user.email);
    displayName = v.displayName(user.username || email.split('@')[0]!);
  } catch (error) {
    return { written: false, reason: reasonOf(error) ?? 'invalid user' };
  }
  const notes: string[] = [];
  const fields = profile(user, notes);
  if (dryRun) return { written: true, id: 0, notes };
  try {
    const created = await createWithDerivedNick(db, {
      email,
      displayName,
      passwordHash: user.passwordHash,
      admin: user.admin,
      ...fields,
      keyrock: { id: user.keyrockId, datePassword: user.datePassword },
    });
    return { written: true, id: created.id, notes };
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    if (error.field === 'nickName') return { written: false, reason: 'no free nickName for this email' };
    if (error.field === 'keyrockId') return { written: false, reason: 'imported before' };
    if (error.field === 'email')
      return { written: false, reason: 'a Gatehouse account already has this email' };
    return { written: false, reason: error.message };
  }
}

export async function importOrganization(
  db: Db,
  org: MovedOrganization,
  users: Map<string, number>,
  dryRun: boolean,
): Promise<Outcome> {
  let fields: { name: string; description: string };
  try {
    fields = v.organizationFields({ name: org.name, description: org.description ?? '' });
  } catch (error) {
    return { written: false, reason: reasonOf(error) ?? 'invalid organization' };
  }
  const owner = org.ownerKeyrockIds.map((k) => users.get(k)).find((id) => id !== undefined);
  if (owner === undefined) return { written: false, reason: 'none of its owners was imported' };
  if (dryRun) return { written: true, id: 0 };
  try {
    const created = await createOrganization(db, { ...fields, ownerUserId: owner, keyrockId: org.keyrockId });
    return { written: true, id: created.id };
  } catch (error) {
    if (error instanceof AppError && error.field === 'keyrockId')
      return { written: false, reason: 'imported before' };
    throw error;
  }
}

/** A membership; one that already holds the role (a second run, or the first owner) is a skip. */
export async function importMembership(
  db: Db,
  orgId: number,
  userId: number,
  role: MemberRole,
  dryRun: boolean,
): Promise<Outcome> {
  const current = await getMembership(db, orgId, userId);
  if (current?.role === role) return { written: false, reason: 'already a member with this role', id: orgId };
  // Never demote: a user both owner and member in Keyrock's rows stays owner.
  if (current?.role === 'owner') return { written: false, reason: 'already an owner', id: orgId };
  if (dryRun) return { written: true, id: orgId };
  await setMember(db, orgId, userId, role);
  return { written: true, id: orgId };
}
