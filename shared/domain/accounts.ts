import bcrypt from 'bcryptjs';
import { config } from '../config.js';
import { AppError, tooMany, unauthorized } from '../errors.js';
import type { Db } from '../store/db.js';
import { clearFailures, isLocked, recordFailure } from '../store/guard.js';
import {
  type Credentials,
  createUser,
  getCredentials,
  type NewUser,
  replacePasswordHash,
  type User,
} from '../store/users.js';
import { matchPassword } from './passwords.js';
import * as v from './validate.js';

export interface SignUp {
  email: unknown;
  password: unknown;
  displayName?: unknown;
  nickName?: unknown;
  /** Keyrock's profile fields (POST /v1/users). */
  description?: unknown;
  website?: unknown;
  /** Only the CLI sets this (`idm user create --admin`); no HTTP route passes it. */
  admin?: boolean;
  /**
   * Only the CLI sets this (`idm user create --keyrock-id`): the id the user had in Keyrock, as
   * `idm import keyrock` keeps it, for a user made by hand whose Keyrock id scripts still use.
   */
  keyrockId?: string | undefined;
  /** A portal sign-up: the account must follow the emailed link before signing in. */
  unverified?: boolean;
}

/**
 * Registers a user: validates every field, hashes the password with bcrypt at the configured
 * cost and writes the user in one transaction. Without a nickName, the email's local part is
 * used (made unique with the user id when taken).
 */
export async function registerUser(db: Db, input: SignUp, bcryptCost: number): Promise<User> {
  const email = v.email(input.email);
  const password = v.password(input.password);
  const localPart = email.split('@')[0]!;
  const displayName =
    input.displayName === undefined || input.displayName === ''
      ? localPart
      : v.displayName(input.displayName);
  const explicitNick = input.nickName !== undefined && input.nickName !== '';
  const nickName = explicitNick ? v.nickName(input.nickName) : derivedNick(localPart);
  const profile = v.profileFields(input);
  const passwordHash = await bcrypt.hash(password, bcryptCost);
  const extra = {
    ...profile,
    admin: input.admin === true,
    emailVerified: input.unverified !== true,
    ...(input.keyrockId !== undefined ? { keyrock: { id: v.keyrockId(input.keyrockId) } } : {}),
  };
  const fields = { email, displayName, passwordHash, ...extra };
  if (explicitNick) return createUser(db, { ...fields, nickName });
  return createWithDerivedNick(db, fields);
}

/**
 * Creates a user whose nickName nobody chose: the email's local part, and, when another account
 * holds it, the same with random digits (unique in practice; three tries). Sign-up without a
 * nickName and `idm import keyrock` both name users this way.
 */
export async function createWithDerivedNick(db: Db, fields: Omit<NewUser, 'nickName'>): Promise<User> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await createUser(db, { ...fields, nickName: derivedNickCandidate(fields.email, attempt) });
    } catch (error) {
      const nickTaken = error instanceof AppError && error.field === 'nickName';
      if (!nickTaken || attempt === DERIVED_NICK_ATTEMPTS - 1) throw error;
    }
  }
}

export const DERIVED_NICK_ATTEMPTS = 3;

/** The nickName to try for an email: its local part first, then with random digits. */
export function derivedNickCandidate(email: string, attempt: number): string {
  const base = derivedNick(email.split('@')[0]!);
  if (attempt === 0) return base;
  return `${base.slice(0, 25)}-${String(Math.floor(Math.random() * 1e6)).padStart(6, '0')}`;
}

export function derivedNick(localPart: string): string {
  const cleaned = localPart.replace(/[^A-Za-z0-9._-]/g, '').slice(0, 32);
  return /^[A-Za-z0-9][A-Za-z0-9._-]{1,31}$/.test(cleaned)
    ? cleaned
    : `user-${cleaned}`.slice(0, 32).padEnd(2, '0');
}

// A hash to compare against when no account has the email, so both cases take as long.
export const DUMMY_HASH = '$2b$10$dBvgERwUxvS4uNKdYSygWe3XfoldBeZsHS1qgYLr3A541xvXJVRL.';

export const INVALID_CREDENTIALS = 'Invalid email or password.';
export const LOCKED_OUT = 'Too many failed sign-in attempts; try again in 15 minutes.';
export const UNVERIFIED =
  'Confirm your email address first: follow the link we emailed you, or ask for a new one on the sign-in page.';

export const DISABLED = 'This account is disabled; ask an administrator to enable it again.';

/** Why a password check failed; each caller answers in its own protocol's words. */
export type Refusal = 'invalid' | 'locked' | 'unverified' | 'disabled';
export type PasswordCheck = { ok: true; userId: number } | { ok: false; reason: Refusal };

/** The portal's and Keyrock's words for a refused check (the token endpoint uses invalid_grant). */
export function refusal(reason: Refusal): AppError {
  if (reason === 'locked') return tooMany(LOCKED_OUT);
  if (reason === 'unverified') return new AppError('forbidden', UNVERIFIED, { code: 'email_not_verified' });
  if (reason === 'disabled') return new AppError('forbidden', DISABLED, { code: 'account_disabled' });
  return unauthorized(INVALID_CREDENTIALS);
}

/** The description of a refused check in an OAuth error (RFC 6749 §5.2 invalid_grant). */
export function refusalDescription(reason: Refusal): string {
  if (reason === 'disabled') return DISABLED;
  return reason === 'locked' ? LOCKED_OUT : reason === 'unverified' ? UNVERIFIED : INVALID_CREDENTIALS;
}

/**
 * Checks an email and password, shared by the portal's sign-in and the OAuth password grant.
 * After 5 failures in 15 minutes the account is locked for 15 minutes and the password is not
 * checked at all; a failure never says whether the email exists. `credentials` are the login
 * and guard of the email when the caller already read them in its own batch (one round trip fewer).
 */
export async function verifyPassword(
  db: Db,
  emailInput: string,
  password: string,
  credentials?: Credentials,
): Promise<PasswordCheck> {
  const email = emailInput.trim().toLowerCase();
  const { login, guard } = credentials ?? (email ? await getCredentials(db, email) : {});
  if (isLocked(guard)) return { ok: false, reason: 'locked' };
  const stored = login?.passwordHash ?? DUMMY_HASH;
  const match = await matchPassword(password, stored, config().keyrockEncryptionKey);
  if (!match.ok || !login) {
    if (email) await recordFailure(db, email);
    return { ok: false, reason: 'invalid' };
  }
  // Checked only after the password matched, so the answer tells a stranger nothing.
  const unverified = config().requireEmailVerification && !login.emailVerified;
  await Promise.all([
    guard && guard.failures > 0 ? clearFailures(db, email) : undefined,
    // A hash moved from Keyrock becomes bcrypt once the password is known (docs/decisions.md).
    match.upgrade
      ? replacePasswordHash(db, email, stored, await bcrypt.hash(password, config().bcryptCost))
      : undefined,
  ]);
  // A disabled account (an administrator's switch, copied onto the login) signs in nowhere.
  if (login.disabled) return { ok: false, reason: 'disabled' };
  return unverified ? { ok: false, reason: 'unverified' } : { ok: true, userId: login.userId };
}

/** The portal's sign-in check: the user id, or 401 / 429 in the portal's words. */
export async function checkPassword(db: Db, email: string, password: string): Promise<number> {
  const check = await verifyPassword(db, email, password);
  if (check.ok) return check.userId;
  throw refusal(check.reason);
}
