import { AppError } from '../errors.js';
import type { MemberRole } from '../model.js';
import { importedIds } from '../store/aliases.js';
import type { Db } from '../store/db.js';
import type { KeyrockKind } from '../store/keys.js';
import { createOrganization, getMembership, setMember } from '../store/organizations.js';
import { addUsersToTotals, userIdBlock } from '../store/stats.js';
import { createUsers, type NewUser, USERS_PER_TRANSACTION } from '../store/users.js';
import { DERIVED_NICK_ATTEMPTS, derivedNickCandidate } from './accounts.js';
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
  /** Keyrock's `enabled`: false moves the account disabled (shared/keyrock/import-rows.ts). */
  enabled: boolean;
  description: string | null;
  website: string | null;
  datePassword: string | undefined;
}

export interface MovedOrganization {
  keyrockId: string;
  name: string;
  description: string | null;
  website: string | null;
  /** Keyrock ids of its owners and members (owners first; an organization needs one owner). */
  ownerKeyrockIds: string[];
}

export const alreadyImported = (db: Db, kind: KeyrockKind, keyrockIds: string[]) =>
  importedIds(db, kind, keyrockIds);

const reasonOf = (error: unknown) => (error instanceof AppError ? error.message : undefined);

/**
 * Keyrock allows longer free texts than Gatehouse and any website string; a user or an
 * organization is never lost for them: a description is cut to Gatehouse's limit and a website
 * that is not an http(s) URL is left out, each with a note in the summary.
 */
function freeTexts(
  record: { description: string | null; website: string | null },
  descriptionLimit: number,
  notes: string[],
) {
  let description = record.description ?? '';
  if (description.length > descriptionLimit) {
    description = description.slice(0, descriptionLimit);
    notes.push(`description cut to ${descriptionLimit} characters`);
  }
  let website = '';
  if (record.website) {
    try {
      website = v.httpUrl(record.website, 'website');
    } catch {
      notes.push('website left out: not an http(s) URL');
    }
  }
  return { description, website };
}

/**
 * Moving users fast and safely. DynamoDB Local on two cores spends about 7 ms of CPU per
 * transaction whatever its size, so users are written 16 to a transaction
 * (store/users.ts `createUsers`), each user still all-or-nothing with its email, nickName and
 * Keyrock id claimed; several transactions run at once. A batch takes its ids in one counter
 * update and adds the users total once at its end, so the parallel transactions share no item.
 * An interrupted batch can leave the SCIM users total short by what it wrote (at most
 * `USER_BATCH`); a later run does not count those users again (docs/operations.md).
 */
export const USER_BATCH = 1000;
const PARALLEL_TRANSACTIONS = 4;

type Prepared =
  | { ok: true; input: Omit<NewUser, 'nickName' | 'bulk'>; notes: string[] }
  | { ok: false; outcome: Outcome };

type Ready = Extract<Prepared, { ok: true }>;

function prepare(user: MovedUser): Prepared {
  let email: string;
  let displayName: string;
  try {
    email = v.email(user.email);
    displayName = v.displayName(user.username || email.split('@')[0]!);
  } catch (error) {
    return { ok: false, outcome: { written: false, reason: reasonOf(error) ?? 'invalid user' } };
  }
  const notes: string[] = [];
  const fields = freeTexts(user, v.LIMITS.userDescription, notes);
  return {
    ok: true,
    notes,
    input: {
      email,
      displayName,
      passwordHash: user.passwordHash,
      admin: user.admin,
      enabled: user.enabled,
      ...fields,
      keyrock: { id: user.keyrockId, datePassword: user.datePassword },
    },
  };
}

function refusalOutcome(error: AppError): Outcome {
  if (error.field === 'nickName') return { written: false, reason: 'no free nickName for this email' };
  if (error.field === 'keyrockId') return { written: false, reason: 'imported before' };
  if (error.field === 'email')
    return { written: false, reason: 'a Gatehouse account already has this email' };
  return { written: false, reason: error.message };
}

export async function importUsers(db: Db, users: MovedUser[], dryRun: boolean): Promise<Outcome[]> {
  const prepared = users.map(prepare);
  const outcomes: Outcome[] = prepared.map((p) =>
    p.ok ? { written: true, id: 0, notes: p.notes } : p.outcome,
  );
  const todo = prepared.flatMap((p, i) => (p.ok ? [i] : []));
  if (dryRun || todo.length === 0) return outcomes;
  const block = await userIdBlock(db, todo.length);
  const groups: number[][] = [];
  for (let g = 0; g < todo.length; g += USERS_PER_TRANSACTION)
    groups.push(todo.slice(g, g + USERS_PER_TRANSACTION));
  const idOf = new Map(
    todo.map((i, k) => [i, { userId: block.firstUser + k, actorId: block.firstActor + k }]),
  );
  let next = 0;
  const worker = async () => {
    while (next < groups.length) {
      let group = groups[next++]!;
      // A taken nickName is tried again with random digits, as at sign-up.
      for (let attempt = 0; group.length > 0 && attempt < DERIVED_NICK_ATTEMPTS; attempt++) {
        const results = await createUsers(
          db,
          group.map((i) => {
            const p = prepared[i] as Ready;
            return { ...p.input, nickName: derivedNickCandidate(p.input.email, attempt), bulk: idOf.get(i)! };
          }),
        );
        const again: number[] = [];
        results.forEach((result, k) => {
          const i = group[k]!;
          if (!(result instanceof AppError))
            outcomes[i] = {
              written: true,
              id: result.id,
              notes: (prepared[i] as Ready).notes,
            };
          else if (result.field === 'nickName' && attempt < DERIVED_NICK_ATTEMPTS - 1) again.push(i);
          else outcomes[i] = refusalOutcome(result);
        });
        group = again;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(PARALLEL_TRANSACTIONS, groups.length) }, worker));
  await addUsersToTotals(db, todo.filter((i) => outcomes[i]!.written).length);
  return outcomes;
}

export async function importOrganization(
  db: Db,
  org: MovedOrganization,
  users: Map<string, number>,
  dryRun: boolean,
): Promise<Outcome> {
  const notes: string[] = [];
  const texts = freeTexts(org, v.LIMITS.organizationDescription, notes);
  let fields: { name: string; description: string };
  try {
    fields = v.organizationFields({ name: org.name, description: texts.description });
  } catch (error) {
    return { written: false, reason: reasonOf(error) ?? 'invalid organization' };
  }
  const owner = org.ownerKeyrockIds.map((k) => users.get(k)).find((id) => id !== undefined);
  if (owner === undefined) return { written: false, reason: 'none of its owners was imported' };
  if (dryRun) return { written: true, id: 0, notes };
  try {
    const created = await createOrganization(db, {
      ...fields,
      website: texts.website,
      ownerUserId: owner,
      keyrockId: org.keyrockId,
    });
    return { written: true, id: created.id, notes };
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
