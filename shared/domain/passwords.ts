import { createHmac, timingSafeEqual } from 'node:crypto';
import bcrypt from 'bcryptjs';

/**
 * Stored password hashes. Gatehouse writes bcrypt. Users moved from Keyrock keep the hash Keyrock
 * stored until their first successful sign-in: Keyrock's `user.password` is the hex HMAC-SHA1 of
 * the password keyed with the user's `salt`, or with the deployment's `password_encryption.key`
 * when the salt is empty (models/user.js, verifyPassword). Such a hash is kept as
 * `keyrock-hmac-sha1$<salt>$<40 hex digits>` so nothing about it is lost and it can never be
 * mistaken for a bcrypt hash (those start with `$2`).
 */
const LEGACY = 'keyrock-hmac-sha1$';
const LEGACY_FORM = /^keyrock-hmac-sha1\$([^$]*)\$([0-9a-f]{40})$/;

/** The stored form of a Keyrock hash (`salt` may be empty: the deployment key applies). */
export function keyrockHash(salt: string, hexDigest: string): string {
  const stored = `${LEGACY}${salt}$${hexDigest.toLowerCase()}`;
  if (!LEGACY_FORM.test(stored))
    throw new TypeError('A Keyrock password hash is 40 hex digits and a salt without "$".');
  return stored;
}

export const isLegacyHash = (stored: string) => stored.startsWith(LEGACY);

export interface PasswordMatch {
  ok: boolean;
  /** The stored hash is Keyrock's: replace it with bcrypt now that the password is known. */
  upgrade: boolean;
}

/**
 * Compares a password with a stored hash of either kind. The Keyrock comparison is in constant
 * time (the digests have a fixed length); `keyrockKey` is Keyrock's `password_encryption.key`,
 * used only for hashes stored without a salt.
 */
export async function matchPassword(
  password: string,
  stored: string,
  keyrockKey: string,
): Promise<PasswordMatch> {
  if (!isLegacyHash(stored)) return { ok: await bcrypt.compare(password, stored), upgrade: false };
  const m = LEGACY_FORM.exec(stored);
  if (!m) return { ok: false, upgrade: false };
  const actual = createHmac('sha1', m[1] || keyrockKey)
    .update(password)
    .digest();
  const ok = timingSafeEqual(actual, Buffer.from(m[2]!, 'hex'));
  return { ok, upgrade: ok };
}
