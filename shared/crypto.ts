import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/** A URL-safe random string of `bytes` bytes of entropy (32 bytes = 256 bits by default). */
export function randomToken(bytes = 32): string {
  return randomBytes(bytes).toString('base64url');
}

/** SHA-256 digest, hex: how tokens, codes, session ids and client secrets are stored at rest. */
export function sha256(value: string): string {
  return createHash('sha256').update(value, 'utf8').digest('hex');
}

/** Compares two strings in time that does not depend on where they differ. */
export function constantTimeEqual(a: string, b: string): boolean {
  const left = Buffer.from(a, 'utf8');
  const right = Buffer.from(b, 'utf8');
  if (left.length !== right.length) {
    // Compare anyway so the early exit leaks only the length, which digests share.
    timingSafeEqual(left, left);
    return false;
  }
  return timingSafeEqual(left, right);
}
