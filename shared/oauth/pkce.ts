import { createHash } from 'node:crypto';
import { constantTimeEqual } from '../crypto.js';

/** RFC 7636 §4.1/§4.2: 43 to 128 characters of [A-Z] / [a-z] / [0-9] / "-" / "." / "_" / "~". */
const PKCE_VALUE = /^[A-Za-z0-9\-._~]{43,128}$/;

export function isValidPkceValue(value: string): boolean {
  return PKCE_VALUE.test(value);
}

/** RFC 7636 §4.6: BASE64URL(SHA256(ASCII(code_verifier))) == code_challenge. Only S256 is supported. */
export function verifyPkce(challenge: string, verifier: string): boolean {
  const computed = createHash('sha256').update(verifier, 'ascii').digest('base64url');
  return constantTimeEqual(computed, challenge);
}
