import bcrypt from 'bcryptjs';
import { config } from '../config.js';
import { invalid, notFound } from '../errors.js';
import type { Db } from '../store/db.js';
import { deleteUserSession, type Session, userSessions } from '../store/sessions.js';
import { LastOwnerError, requireUser, type User, updateUser } from '../store/users.js';
import { reauthenticate } from './two-factor.js';
import { closeAccount, endAccess } from './user-admin.js';
import * as v from './validate.js';

/**
 * The portal's account settings: what a signed-in person changes about their own account.
 * Changing the password or deleting the account asks for the password again, through the
 * brute-force guard (two-factor.ts `reauthenticate`), so a session left open elsewhere is not
 * enough; the e-mail change (account-links.ts) asks it too.
 */

/** The account as its settings page shows it. */
export function accountView(user: User) {
  return {
    id: user.id,
    email: user.email,
    nickName: user.nickName,
    displayName: user.displayName,
    admin: user.admin === true,
    createdAt: user.createdAt,
    passwordChangedAt: user.datePassword ?? user.createdAt,
  };
}

/** A session as the settings page lists it: its digest is its handle (never the cookie's value). */
export interface SessionView {
  id: string;
  current: boolean;
  signedInAt?: string | undefined;
  lastActiveAt: string;
}

const iso = (seconds: number) => new Date(seconds * 1000).toISOString();

/**
 * The account and its live portal sessions, the current one first, then the most recent. The
 * list comes from an eventually consistent index, so the current session is added if the index
 * has not caught up with it yet.
 */
export async function accountWithSessions(db: Db, session: Session) {
  const [user, listed] = await Promise.all([
    requireUser(db, session.userId),
    userSessions(db, session.userId),
  ]);
  const all = listed.some((s) => s.digest === session.digest) ? listed : [session, ...listed];
  const idle = config().sessionIdleTtl;
  const sessions: SessionView[] = all
    .map((s) => ({
      id: s.digest,
      current: s.digest === session.digest,
      signedInAt: s.authTime !== undefined ? iso(s.authTime) : undefined,
      // The expiry slides with activity: it was last pushed forward `idle` seconds before it.
      lastActiveAt: iso(s.expiresAt - idle),
    }))
    .sort((a, b) => Number(b.current) - Number(a.current) || b.lastActiveAt.localeCompare(a.lastActiveAt));
  return { user: accountView(user), sessions };
}

/** Changes the display name (the sign-up rules); one transaction with the directory's entry. */
export async function renameAccount(db: Db, userId: number, input: { displayName?: unknown }) {
  const displayName = v.displayName(input.displayName);
  const user = await requireUser(db, userId);
  if (displayName === user.displayName) return accountView(user);
  return accountView(await updateUser(db, user, { displayName }));
}

/**
 * Changes the password: the current one first (a wrong one counts toward the lock-out and is a
 * 400 on `password`, not a 401, which would sign the portal out), then the new one by the
 * sign-up rules. By default the account's other portal sessions end and the refresh tokens
 * applications hold are revoked, as after a reset: whoever knew the old password is out.
 */
export async function changePassword(
  db: Db,
  session: Session,
  input: { password?: unknown; newPassword?: unknown; signOutOthers?: unknown },
) {
  const next = v.password(input.newPassword, 'newPassword');
  const signOutOthers =
    input.signOutOthers === undefined ? true : v.bool(input.signOutOthers, 'signOutOthers');
  await reauthenticate(db, session.userId, input.password);
  if (input.password === next)
    throw invalid('Choose a password different from the current one.', 'newPassword');
  const user = await requireUser(db, session.userId);
  await updateUser(db, user, { passwordHash: await bcrypt.hash(next, config().bcryptCost) });
  const ended = signOutOthers ? await endAccess(db, session.userId, session.digest) : undefined;
  return {
    changed: true,
    sessionsEnded: ended?.sessionsEnded ?? 0,
    grantsRevoked: ended?.grantsRevoked ?? 0,
  };
}

const SESSION_ID = /^[0-9a-f]{64}$/;

/** Ends one of one's other sessions (signing out there); the current one ends with "Sign out". */
export async function endSession(db: Db, session: Session, id: string): Promise<void> {
  if (id === session.digest) throw invalid('This is the session you are using: sign out instead.', 'id');
  if (!SESSION_ID.test(id) || !(await deleteUserSession(db, session.userId, id))) {
    throw notFound('You have no such session.');
  }
}

/** "Sign out everywhere else": every portal session of the account but the current one. */
export async function endOtherSessions(db: Db, session: Session) {
  const { sessionsEnded } = await endAccess(db, session.userId, session.digest);
  return { sessionsEnded };
}

/**
 * Deletes one's own account after the password: everything of it goes (user-admin.ts
 * `closeAccount`); the last owner of an organization is told which ones to hand over first (409).
 */
export async function deleteOwnAccount(db: Db, session: Session, input: { password?: unknown }) {
  await reauthenticate(db, session.userId, input.password);
  try {
    await closeAccount(db, session.userId);
  } catch (error) {
    if (error instanceof LastOwnerError) throw new LastOwnerError('You are', error.organizations);
    throw error;
  }
}
