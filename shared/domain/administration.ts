import { forbidden, invalid } from '../errors.js';
import type { Db } from '../store/db.js';
import { type DirectoryField, directoryPage, requireUser, type User } from '../store/users.js';
import { scimTotals } from './scim.js';
import { type Actor, ADMINS_ONLY, changeAdministrator, setAccountEnabled } from './user-admin.js';
import * as v from './validate.js';

/**
 * The portal's administrator page: the user directory with search and paging, disabling and
 * enabling accounts, the administrator flag, and the SCIM totals. Every function checks that the
 * signed-in user is an administrator (403 otherwise); the rules themselves are user-admin.ts's,
 * shared with Keyrock's /v1/users.
 */

/** The signed-in user as an actor, if an administrator (one GetItem; not a request-path read). */
export async function requireAdministrator(db: Db, userId: number): Promise<Actor> {
  const user = await requireUser(db, userId);
  if (user.admin !== true || user.enabled === false) throw forbidden(ADMINS_ONLY);
  return { id: user.id, admin: true };
}

export function directoryEntry(user: User) {
  return {
    id: user.id,
    email: user.email,
    displayName: user.displayName,
    nickName: user.nickName,
    admin: user.admin === true,
    enabled: user.enabled !== false,
    createdAt: user.createdAt,
  };
}

export interface DirectoryQuery {
  q?: string | undefined;
  by?: string | undefined;
  limit?: string | undefined;
  cursor?: string | undefined;
}

const FIELDS: readonly DirectoryField[] = ['email', 'name'];
const BAD_CURSOR = 'cursor is not one this list gave out; start again from the first page.';

/**
 * A cursor is the index position DynamoDB gave for the previous page, base64url-encoded. It is
 * checked before use: four string keys, in the partition of the field searched and inside the
 * prefix (DynamoDB refuses a start key outside the key condition with a 400 we must not pass on).
 */
export function decodeCursor(raw: string, field: DirectoryField, prefix: string): Record<string, string> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(raw, 'base64url').toString('utf8'));
  } catch {
    throw invalid(BAD_CURSOR, 'cursor');
  }
  const names = ['PK', 'SK', 'GSI1PK', 'GSI1SK'];
  const ok =
    typeof parsed === 'object' &&
    parsed !== null &&
    !Array.isArray(parsed) &&
    Object.keys(parsed).length === names.length &&
    names.every((n) => typeof (parsed as Record<string, unknown>)[n] === 'string');
  const key = parsed as Record<string, string>;
  const partition = field === 'email' ? 'DIRECTORY#EMAIL' : 'DIRECTORY#NAME';
  if (!ok || key.GSI1PK !== partition || !key.GSI1SK!.startsWith(prefix.toLowerCase()) || raw.length > 2000) {
    throw invalid(BAD_CURSOR, 'cursor');
  }
  return key;
}

export const encodeCursor = (key: Record<string, unknown>) =>
  Buffer.from(JSON.stringify(key), 'utf8').toString('base64url');

/**
 * One page of users, by email prefix (the default) or display-name prefix, in the index's order,
 * with the SCIM totals read alongside (one GetItem in the same round trip). `next` is the
 * cursor of the following page while there may be one.
 */
export async function searchUsers(db: Db, adminId: number, query: DirectoryQuery) {
  await requireAdministrator(db, adminId);
  const by = (query.by ?? 'email') as DirectoryField;
  if (!FIELDS.includes(by)) throw invalid('by must be email or name.', 'by');
  const prefix = v.searchPrefix(query.q);
  const limit =
    query.limit === undefined ? v.LIMITS.directoryPageDefault : v.positiveInt(query.limit, 'limit');
  if (limit > v.LIMITS.directoryPage)
    throw invalid(`limit must be at most ${v.LIMITS.directoryPage}.`, 'limit');
  const start = query.cursor ? decodeCursor(query.cursor, by, prefix) : undefined;
  const [page, totals] = await Promise.all([directoryPage(db, by, prefix, limit, start), scimTotals(db)]);
  return {
    users: page.users.map(directoryEntry),
    ...(page.next ? { next: encodeCursor(page.next) } : {}),
    // The totals SCIM's ServiceProviderConfig publishes (GET /v2/ServiceProviderConfigs).
    totals,
  };
}

/**
 * Changes another account from the administrator page: `enabled` (user-admin.ts
 * `setAccountEnabled`, the same function as Keyrock's PATCH /v1/users/:id) and `admin`
 * (`changeAdministrator`, the same rule as `idm user set-admin` plus "not yourself").
 */
export async function updateUserAsAdmin(
  db: Db,
  adminId: number,
  userId: number,
  input: { enabled?: unknown; admin?: unknown },
) {
  const actor = await requireAdministrator(db, adminId);
  const enabled = input.enabled === undefined ? undefined : v.bool(input.enabled, 'enabled');
  const admin = input.admin === undefined ? undefined : v.bool(input.admin, 'admin');
  if (enabled === undefined && admin === undefined) throw invalid('Send enabled or admin.', 'enabled');
  let user = await requireUser(db, userId);
  if (admin !== undefined && admin !== (user.admin === true)) {
    user = { ...user, admin: (await changeAdministrator(db, actor, userId, admin)).admin };
  }
  if (enabled !== undefined && enabled !== (user.enabled !== false)) {
    user = { ...user, enabled: (await setAccountEnabled(db, actor, userId, enabled)).enabled };
  }
  return directoryEntry(user);
}
