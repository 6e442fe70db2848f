import bcrypt from 'bcryptjs';
import { forbidden, invalid, notFound } from '../errors.js';
import { importedIds } from '../store/aliases.js';
import type { Db } from '../store/db.js';
import { deleteUser, getUser, setAdmin, type User, updateUser, usersPage } from '../store/users.js';
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
}

/** The fields a change actually changed (the password counts, without its value). */
export type ChangedField = 'displayName' | 'email' | 'description' | 'website' | 'password';

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
  const changes = {
    displayName: displayName !== current.displayName ? displayName : undefined,
    email: email !== current.email ? email : undefined,
    description: profile.description !== (current.description ?? '') ? profile.description : undefined,
    website: profile.website !== (current.website ?? '') ? profile.website : undefined,
  };
  const changed = (Object.keys(changes) as (keyof typeof changes)[]).filter((k) => changes[k] !== undefined);
  const passwordHash = password === undefined ? undefined : await bcrypt.hash(password, bcryptCost);
  if (changed.length === 0 && passwordHash === undefined) return { user: current, changed: [] };
  const user = await updateUser(db, current, { ...changes, passwordHash });
  return { user, changed: passwordHash === undefined ? changed : [...changed, 'password'] };
}

/** DELETE /v1/users/:id: the user or an administrator; everything of the user goes at once. */
export async function removeAccount(db: Db, caller: ApiCaller, userId: number): Promise<void> {
  await managed(db, caller, userId);
  await deleteUser(db, userId);
}

/** `idm user set-admin`: makes a user an administrator, or (`false`) an ordinary user again. */
export function setAdministrator(db: Db, userId: number, admin: boolean): Promise<User> {
  if (!Number.isSafeInteger(userId) || userId < 1) throw invalid('user must be a positive integer.', 'user');
  return setAdmin(db, userId, admin);
}
