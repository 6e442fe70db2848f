import { Secret, TOTP } from 'otpauth';
import { invalid } from '../errors.js';
import type { Db } from '../store/db.js';
import { clearFailures } from '../store/guard.js';
import {
  enableTotp,
  readTwoFactor,
  type TwoFactorRecord,
  useRecoveryCode,
  useTotpStep,
} from '../store/two-factor.js';
import { sealedBox } from './sealed.js';
import {
  codeField,
  isTotpCode,
  newRecoveryCodes,
  recoveryDigest,
  refuseIfLocked,
  USED_CODE,
  wrongCode,
} from './two-factor.js';

/**
 * Authenticator apps (RFC 6238 TOTP: HMAC-SHA1, 6 digits, 30-second steps, the parameters every
 * app understands). The shared secret is kept encrypted with AES-256-GCM under a key derived
 * from the deployment's at-rest key (shared/store/at-rest-key.ts), bound to its user by the
 * authenticated data, so a copy of the table alone reveals no secret and a ciphertext moved to
 * another user's item does not decrypt.
 */
export const ISSUER = 'Gatehouse';
const PERIOD = 30;

// The label and authenticated data are those secrets were first sealed with: changing them
// would make every enrolled app unreadable.
const box = sealedBox<number>('gatehouse totp secret v1', 'gatehouse:totp');

/** `v1.<iv>.<ciphertext and tag>` (base64url), bound to the user. */
export const sealSecret = (userId: number, base32: string): Promise<string> => box.seal(userId, base32);

export const openSecret = (userId: number, sealed: string): Promise<string> => box.open(userId, sealed);

export function totpFor(base32: string, label: string): TOTP {
  return new TOTP({
    issuer: ISSUER,
    label,
    algorithm: 'SHA1',
    digits: 6,
    period: PERIOD,
    secret: Secret.fromBase32(base32),
  });
}

export function newTotpSecret(): string {
  return new Secret({ size: 20 }).base32;
}

/**
 * The time step a code belongs to, or undefined: the current step and one on each side
 * (RFC 6238 §5.2 allows one step of clock drift either way).
 */
export function stepOf(base32: string, code: string, now = Date.now()): number | undefined {
  const totp = totpFor(base32, 'check');
  const delta = totp.validate({ token: code.replace(/\s/g, ''), timestamp: now, window: 1 });
  return delta === null ? undefined : totp.counter({ timestamp: now }) + delta;
}

export type CodeMethod = 'totp' | 'recovery';

/**
 * Checks a second-factor code for a user whose password matched: a TOTP code (six digits) or a
 * recovery code (anything else), through the brute-force guard of the email. A TOTP code is
 * accepted once (its step is recorded); a recovery code is used up. Throws 401 / 429 otherwise.
 */
export async function verifySecondFactorCode(
  db: Db,
  userId: number,
  email: string,
  code: string,
  known?: TwoFactorRecord,
): Promise<CodeMethod> {
  const [record] = await Promise.all([known ?? readTwoFactor(db, userId), refuseIfLocked(db, email)]);
  if (isTotpCode(code)) {
    if (!record.totp) return wrongCode(db, email);
    const step = stepOf(await openSecret(userId, record.totp.secret), code);
    if (step === undefined) return wrongCode(db, email);
    if (step <= record.totp.lastStep || !(await useTotpStep(db, userId, step))) {
      return wrongCode(db, email, USED_CODE);
    }
    await clearFailures(db, email);
    return 'totp';
  }
  if (code.length < 16) return wrongCode(db, email);
  if (!(await useRecoveryCode(db, userId, recoveryDigest(code)))) return wrongCode(db, email);
  await clearFailures(db, email);
  return 'recovery';
}

/** A confirming code at enrolment: six digits, else a field error. */
export function enrolmentCode(code: string): string {
  if (!isTotpCode(code)) throw invalid('Enter the six-digit code your app shows.', 'code');
  return code.replace(/\s/g, '');
}

/**
 * Confirms the app with a code it shows: two-factor sign-in is on from now. The first second
 * factor also brings ten recovery codes, returned once (only their digests are kept).
 */
export async function confirmTotp(
  db: Db,
  userId: number,
  codeInput: unknown,
): Promise<{ recoveryCodes: string[] | null }> {
  const code = enrolmentCode(codeField(codeInput));
  const record = await readTwoFactor(db, userId);
  if (!record.pendingTotp) {
    throw invalid('Start again: the set-up expired or was not started.', 'code');
  }
  const step = stepOf(await openSecret(userId, record.pendingTotp.secret), code);
  if (step === undefined) {
    throw invalid('The code is not right; check the time on your device and try the current code.', 'code');
  }
  const recovery = record.recovery.length === 0 ? newRecoveryCodes() : undefined;
  if (!(await enableTotp(db, userId, record.pendingTotp.secret, step, recovery?.digests))) {
    throw invalid('Start again: the set-up expired or was confirmed already.', 'code');
  }
  return { recoveryCodes: recovery?.codes ?? null };
}
