import { randomBytes } from 'node:crypto';
import { config } from '../config.js';
import { sha256 } from '../crypto.js';
import { AppError, conflict, invalid, tooMany } from '../errors.js';
import type { Db } from '../store/db.js';
import { isLocked, recordFailure } from '../store/guard.js';
import {
  disableTotp,
  readTwoFactor,
  replaceRecoveryCodes,
  type TwoFactorRecord,
} from '../store/two-factor.js';
import { getCredentials, requireUser } from '../store/users.js';
import { LOCKED_OUT, verifyPassword } from './accounts.js';

/*
 * Two-factor sign-in, the parts every function may carry: the words, recovery codes, the view
 * of a user's factors and the password check that guards changes to them. TOTP (otpauth) and
 * WebAuthn (@simplewebauthn/server) live in totp.ts and passkeys.ts, so the token endpoint and
 * the portal's sign-in never load them (bench/cold-start.ts checks).
 */

/** RFC 6749 §5.2: the password grant cannot carry a second factor, so it is refused (as Keycloak does). */
export const TWO_FACTOR_GRANT =
  'Two-factor sign-in is on for this account, and the password grant cannot carry a second factor; sign in through the authorization endpoint (authorization code flow) instead.';
export const WRONG_CODE = 'The code is not right; try the current code from your app, or a recovery code.';
export const USED_CODE = 'This code was used already; wait for the next one from your app.';
export const TICKET_GONE =
  'This sign-in took too long or was finished already; start again with your email and password.';

/** What the settings page shows; secrets never leave the server after enrolment. */
export interface TwoFactorView {
  enabled: boolean;
  totp: boolean;
  recoveryCodesLeft: number;
  passkeys: { id: string; name: string; createdAt: string; lastUsedAt: string | null }[];
}

const iso = (s: number) => new Date(s * 1000).toISOString();

export function twoFactorView(record: TwoFactorRecord): TwoFactorView {
  return {
    enabled: record.totp !== undefined || record.passkeys.length > 0,
    totp: record.totp !== undefined,
    recoveryCodesLeft: record.recovery.length,
    passkeys: record.passkeys.map((p) => ({
      id: p.id,
      name: p.name,
      createdAt: iso(p.createdAt),
      lastUsedAt: p.lastUsedAt ? iso(p.lastUsedAt) : null,
    })),
  };
}

/** The methods a sign-in waiting for its second factor may use. */
export function methodsOf(record: TwoFactorRecord): ('totp' | 'recovery' | 'passkey')[] {
  return [
    ...(record.totp ? (['totp'] as const) : []),
    ...(record.recovery.length > 0 ? (['recovery'] as const) : []),
    ...(record.passkeys.length > 0 ? (['passkey'] as const) : []),
  ];
}

// Crockford's base32 without I, L, O, U: nothing to mistake when typed from paper.
const ALPHABET = '0123456789abcdefghjkmnpqrstvwxyz';
export const RECOVERY_CODE_COUNT = 10;

/** Ten recovery codes of 80 random bits each, `xxxx-xxxx-xxxx-xxxx`, shown once. */
export function newRecoveryCodes(): { codes: string[]; digests: string[] } {
  const codes = Array.from({ length: RECOVERY_CODE_COUNT }, () => {
    const bytes = randomBytes(16);
    const chars = [...bytes].map((b) => ALPHABET[b & 31]).join('');
    return chars.match(/.{4}/g)!.join('-');
  });
  return { codes, digests: codes.map(recoveryDigest) };
}

/** Recovery codes are compared without case, spaces or dashes; 80 random bits make SHA-256 enough. */
export function normalizeRecoveryCode(code: string): string {
  return code.toLowerCase().replace(/[\s-]/g, '');
}

export function recoveryDigest(code: string): string {
  return sha256(`recovery:${normalizeRecoveryCode(code)}`);
}

/** A TOTP code is six digits; anything else offered as a code is read as a recovery code. */
export function isTotpCode(code: string): boolean {
  return /^\d{6}$/.test(code.replace(/\s/g, ''));
}

/** Reads a code field: a string of at most 64 characters. */
export function codeField(value: unknown, field = 'code'): string {
  if (typeof value !== 'string' || value.trim() === '') throw invalid('Enter the code.', field);
  if (value.length > 64) throw invalid('The code is too long.', field);
  return value.trim();
}

/**
 * Changing one's second factors asks for the password again (a session left open on a shared
 * computer must not be enough to add a passkey or turn the app off). The check goes through the
 * brute-force guard like any sign-in. Returns the user's email.
 */
export async function reauthenticate(db: Db, userId: number, password: unknown): Promise<string> {
  if (typeof password !== 'string' || password === '') {
    throw invalid('Enter your password to confirm.', 'password');
  }
  const user = await requireUser(db, userId);
  const check = await verifyPassword(db, user.email, password);
  if (check.ok || check.reason === 'unverified') return user.email;
  if (check.reason === 'locked') throw tooMany(LOCKED_OUT);
  throw invalid('The password is not right.', 'password');
}

/**
 * The brute-force guard for second-factor codes: the same counter as passwords, per email, so
 * five wrong codes lock the account for 15 minutes like five wrong passwords (shared/store/guard.ts).
 */
export async function refuseIfLocked(db: Db, email: string): Promise<void> {
  const { guard } = await getCredentials(db, email);
  if (isLocked(guard)) throw tooMany(LOCKED_OUT);
}

/** Counts a wrong code and answers it; the fifth in 15 minutes locks the account. */
export async function wrongCode(db: Db, email: string, message = WRONG_CODE): Promise<never> {
  await recordFailure(db, email);
  throw new AppError('unauthorized', message, { code: 'invalid_code', field: 'code' });
}

/** The relying party of passkeys: the service's public origin (never a request header in AWS). */
export function relyingParty(requestOrigin: string): { id: string; origin: string } {
  let url: URL;
  try {
    url = new URL(config().publicUrl || requestOrigin);
  } catch {
    throw invalid('The Host header does not name a host.');
  }
  return { id: url.hostname, origin: url.origin };
}

/** Removes the authenticator app (after the password). With no passkey left, two-factor is off. */
export async function removeTotp(db: Db, userId: number, password: unknown): Promise<void> {
  await reauthenticate(db, userId, password);
  const record = await readTwoFactor(db, userId);
  if (!record.totp) return;
  await disableTotp(db, userId, record.passkeys.length === 0);
}

/** New recovery codes (after the password); the old ones stop working. Needs a second factor. */
export async function renewRecoveryCodes(db: Db, userId: number, password: unknown): Promise<string[]> {
  await reauthenticate(db, userId, password);
  const record = await readTwoFactor(db, userId);
  if (!record.totp && record.passkeys.length === 0) {
    throw conflict('Recovery codes come with two-factor sign-in: set up an app or a passkey first.');
  }
  const { codes, digests } = newRecoveryCodes();
  await replaceRecoveryCodes(db, userId, digests);
  return codes;
}

/** The settings page's view of a user's second factors (one consistent Query). */
export async function twoFactorOf(db: Db, userId: number): Promise<TwoFactorView> {
  return twoFactorView(await readTwoFactor(db, userId));
}
