import bcrypt from 'bcryptjs';
import { forbidden, invalid, notFound } from '../errors.js';
import { userGrantIds } from '../store/account-links.js';
import { importedIds } from '../store/aliases.js';
import type { Db } from '../store/db.js';
import { deleteUserSessions } from '../store/sessions.js';
import { revokeGrant } from '../store/tokens.js';
import {
  deleteUser,
  forgetUser,
  getUser,
  setAdmin,
  setEnabled,
  type User,
  updateUser,
  usersPage,
} from '../store/users.js';
import { registerUser, type SignUp } from './accounts.js';
import { type ApiCaller, requireAdmin } from './api-tokens.js';
import * as v from './validate.js';

/**
 * Managing users through Keyrock's /v1 API: an administrator manages every user; anyone else
 * only themselves. The portal's sign-up and `idm user create` register users with the same
 * registerUser, so /v1, the portal and GET /user share one record.
 */
const NOT_AUTHORIZED = 'User not authorized to perform action';

/**
 * The user a caller names by id, if the caller may manage them. Someone else's id is 403 for a
 * non-administrator whether or not it exists, so ids cannot be probed.
 */
async function managed(db: Db, caller: ApiCaller, userId: number): Promise<User> {
  if (caller.user.id !== userId && caller.user.admin !== true) throw forbidden(NOT_AUTHORIZED);
  if (caller.user.id === userId) return caller.user;
  const user = await getUser(db, userId);
  if (!user) throw notFound('User not found');
  return user;
}

const KEYROCK_ID = /^[0-9a-zA-Z][0-9a-zA-Z_-]{0,63}$/;

/**
 * A user id as /v1 paths carry it: Gatehouse's integer id in decimal, or the id Keyrock gave a
 * user moved by `idm import keyrock` (one GetItem on its alias, pattern 22). Anything else, or an
 * id nobody has, is Keyrock's 404.
 */
export async function userIdParam(db: Db, raw: string): Promise<number> {
  if (/^\d{1,15}$/.test(raw)) return v.positiveInt(raw, 'user_id');
  if (!KEYROCK_ID.test(raw)) throw notFound('User not found');
  const found = (await importedIds(db, 'user', [raw])).get(raw);
  if (found === undefined) throw notFound('User not found');
  return found;
}

export interface UsersPage {
  users: User[];
  /** The first id of the next page, while ids beyond this page have been drawn. */
  next?: number | undefined;
}

/**
 * One page of users by id (administrators only): the profiles of ids `from` to `from + limit - 1`
 * in one BatchGetItem, never a Scan. Ids of deleted users leave gaps, so a page may hold fewer
 * than `limit` users; `next` says where the following page starts.
 */
export async function listUsers(db: Db, caller: ApiCaller, from: number, limit: number): Promise<UsersPage> {
  requireAdmin(caller);
  const page = await usersPage(db, from, limit);
  const nextFrom = from + limit;
  return { users: page.users, ...(nextFrom <= page.lastId ? { next: nextFrom } : {}) };
}

/** POST /v1/users (administrators only): the same registration as the portal's sign-up. */
export function createAccount(
  db: Db,
  caller: ApiCaller,
  input: Omit<SignUp, 'admin' | 'nickName'>,
  bcryptCost: number,
): Promise<User> {
  requireAdmin(caller);
  return registerUser(db, input, bcryptCost);
}

export function readAccount(db: Db, caller: ApiCaller, userId: number): Promise<User> {
  return managed(db, caller, userId);
}

export interface AccountChanges {
  displayName?: unknown;
  email?: unknown;
  description?: unknown;
  website?: unknown;
  password?: unknown;
  /** Administrators only, never on oneself (setAccountEnabled). */
  enabled?: unknown;
}

/** The fields a change actually changed (the password counts, without its value). */
export type ChangedField = 'displayName' | 'email' | 'description' | 'website' | 'password' | 'enabled';

/**
 * PATCH /v1/users/:id: the user or an administrator changes the name, email, description,
 * website or password, validated by the same rules as at registration, written in one
 * transaction (a new email moves the unique login). Returns the user after the change and the
 * fields that changed.
 */
export async function changeAccount(
  db: Db,
  caller: ApiCaller,
  userId: number,
  input: AccountChanges,
  bcryptCost: number,
): Promise<{ user: User; changed: ChangedField[] }> {
  const current = await managed(db, caller, userId);
  const displayName =
    input.displayName === undefined ? undefined : v.displayName(input.displayName, 'username');
  const email = input.email === undefined ? undefined : v.email(input.email);
  const profile = v.profileFields(input);
  const password = input.password === undefined ? undefined : v.password(input.password);
  const enabled = input.enabled === undefined ? undefined : v.bool(input.enabled, 'enabled');
  // Keyrock's PATCH carries `enabled` too; only an administrator may switch someone else's.
  const switched = enabled !== undefined && enabled !== (current.enabled !== false);
  if (switched) assertMaySwitch({ id: caller.user.id, admin: caller.user.admin === true }, userId, enabled);
  const changes = {
    displayName: displayName !== current.displayName ? displayName : undefined,
    email: email !== current.email ? email : undefined,
    description: profile.description !== (current.description ?? '') ? profile.description : undefined,
    website: profile.website !== (current.website ?? '') ? profile.website : undefined,
  };
  const changed = (Object.keys(changes) as (keyof typeof changes)[]).filter((k) => changes[k] !== undefined);
  const passwordHash = password === undefined ? undefined : await bcrypt.hash(password, bcryptCost);
  const extra: ChangedField[] = [
    ...(passwordHash === undefined ? [] : (['password'] as const)),
    ...(switched ? (['enabled'] as const) : []),
  ];
  if (changed.length === 0 && passwordHash === undefined && !switched) return { user: current, changed: [] };
  let user =
    changed.length > 0 || passwordHash !== undefined
      ? await updateUser(db, current, { ...changes, passwordHash })
      : current;
  if (switched) user = { ...user, ...(await switchAccount(db, userId, enabled)) };
  return { user, changed: [...changed, ...extra] };
}

/** Who acts on another account from the portal or /v1: their id and whether they administer. */
export interface Actor {
  id: number;
  admin: boolean;
}

export const ADMINS_ONLY = 'Only administrators may do this.';

function assertMaySwitch(actor: Actor, userId: number, enabled: boolean): void {
  if (!actor.admin) throw forbidden(NOT_AUTHORIZED);
  // An administrator who disabled themselves could not sign in to undo it.
  if (actor.id === userId && !enabled) throw invalid('You cannot disable your own account.', 'enabled');
}

/** The switch itself; disabling also ends access that is not re-read on every request. */
async function switchAccount(db: Db, userId: number, enabled: boolean): Promise<User> {
  const user = await setEnabled(db, userId, enabled);
  if (!enabled) await endAccess(db, userId);
  return user;
}

/**
 * Disables or enables an account: the one function behind the portal's administrator page and
 * Keyrock's `PATCH /v1/users/:id {user: {enabled}}`. A disabled account cannot sign in; its
 * access tokens and Keyrock API tokens are refused where their user is read (GET /user,
 * /users/:id, UserInfo, introspection, /v1), and its portal sessions and refresh tokens, which
 * are not re-read with the user on every request, are ended and revoked here.
 */
export async function setAccountEnabled(
  db: Db,
  actor: Actor,
  userId: number,
  enabled: boolean,
): Promise<User> {
  assertMaySwitch(actor, userId, enabled);
  return switchAccount(db, userId, enabled);
}

/**
 * Ends what a user holds without re-reading the user on each use: every portal session but
 * `exceptSession`, and every grant with refresh tokens (their access tokens revoked with them).
 */
export async function endAccess(db: Db, userId: number, exceptSession?: string) {
  const [sessionsEnded, grants] = await Promise.all([
    deleteUserSessions(db, userId, exceptSession),
    userGrantIds(db, userId),
  ]);
  await Promise.all(grants.map((g) => revokeGrant(db, g)));
  return { sessionsEnded, grantsRevoked: grants.length };
}

/**
 * Deletes an account and everything of it: the user's partition (profile, memberships,
 * authorizations, role assignments, consents), login, nickName, directory entries, then its
 * sessions, refresh grants (revoked) and second factors. The last owner of an organization is
 * refused (409) before anything goes, naming every such organization.
 */
export async function closeAccount(db: Db, userId: number): Promise<void> {
  await deleteUser(db, userId);
  await endAccess(db, userId);
  await forgetUser(db, userId);
}

/**
 * Makes a user an administrator or an ordinary user again, from the portal: administrators only,
 * never on oneself; the store refuses to take the flag from the last administrator (409).
 */
export async function changeAdministrator(
  db: Db,
  actor: Actor,
  userId: number,
  admin: boolean,
): Promise<User> {
  if (!actor.admin) throw forbidden(ADMINS_ONLY);
  if (actor.id === userId) throw invalid('You cannot change your own administrator flag.', 'admin');
  return setAdministrator(db, userId, admin);
}

/** DELETE /v1/users/:id: the user or an administrator; everything of the user goes at once. */
export async function removeAccount(db: Db, caller: ApiCaller, userId: number): Promise<void> {
  await managed(db, caller, userId);
  await closeAccount(db, userId);
}

/** `idm user set-admin`: makes a user an administrator, or (`false`) an ordinary user again. */
export function setAdministrator(db: Db, userId: number, admin: boolean): Promise<User> {
  if (!Number.isSafeInteger(userId) || userId < 1) throw invalid('user must be a positive integer.', 'user');
  return setAdmin(db, userId, admin);
}
