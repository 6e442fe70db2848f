import { createHash } from 'node:crypto';
import { type JWTPayload, SignJWT } from 'jose';
import type { User } from '../store/users.js';
import { nowSeconds } from '../time.js';
import { scopesOf, standardClaims, subjectOf } from './claims.js';
import { signingKey } from './keys.js';

/**
 * OIDC Core §3.1.3.6 (at_hash) and §3.3.2.11 (c_hash): the base64url of the left half of the
 * hash of the value's ASCII octets, with the hash of the signing algorithm: SHA-256 for both
 * RS256 and ES256.
 */
export function halfHash(value: string): string {
  const digest = createHash('sha256').update(value, 'ascii').digest();
  return digest.subarray(0, digest.length / 2).toString('base64url');
}

export interface IdTokenInput {
  issuer: string;
  clientId: string;
  subject: string;
  /** When the user signed in (epoch seconds), if known. */
  authTime?: number | undefined;
  /** How the user signed in (RFC 8176 values, model.ts `AuthMethod`), if known. */
  amr?: readonly string[] | undefined;
  nonce?: string | undefined;
  /** Issued with the ID token: at_hash binds it (§3.1.3.6, §3.2.2.10). */
  accessToken?: string | undefined;
  /** The scopes' standard claims (claims.ts). */
  claims?: Record<string, unknown> | undefined;
  lifetime: number;
  now?: number | undefined;
}

/** OIDC Core §2: the ID token's claims. `aud` is the client alone, so no `azp` is needed. */
export function idTokenClaims(input: IdTokenInput): JWTPayload {
  const now = input.now ?? nowSeconds();
  return {
    ...input.claims,
    iss: input.issuer,
    sub: input.subject,
    aud: input.clientId,
    exp: now + input.lifetime,
    iat: now,
    ...(input.authTime !== undefined ? { auth_time: input.authTime } : {}),
    ...(input.amr && input.amr.length > 0 ? { amr: [...input.amr] } : {}),
    // §3.1.2.1: the nonce is passed through unmodified when the request carried one.
    ...(input.nonce !== undefined ? { nonce: input.nonce } : {}),
    ...(input.accessToken !== undefined ? { at_hash: halfHash(input.accessToken) } : {}),
  };
}

/** Signs claims with the active key; `typ` as RFC 9068 §2.1 asks for access tokens. */
export async function signJwt(payload: JWTPayload, typ?: string): Promise<string> {
  const { kid, alg, key } = await signingKey();
  return new SignJWT(payload).setProtectedHeader({ alg, kid, ...(typ ? { typ } : {}) }).sign(key);
}

export interface UserIdToken {
  issuer: string;
  clientId: string;
  user: User;
  scope: string | undefined;
  nonce?: string | undefined;
  authTime?: number | undefined;
  amr?: readonly string[] | undefined;
  /** The access token issued with it, if any (at_hash). */
  accessToken?: string | undefined;
  lifetime: number;
}

/**
 * A signed ID token for a user, with the claims its scopes allow: from a code exchange (OIDC
 * Core §3.1.3.3) or the implicit flow (§3.2.2.10, where no UserInfo call may follow).
 */
export function userIdToken(input: UserIdToken): Promise<string> {
  return signJwt(
    idTokenClaims({
      issuer: input.issuer,
      clientId: input.clientId,
      subject: subjectOf(input.user.id),
      authTime: input.authTime,
      amr: input.amr,
      nonce: input.nonce,
      accessToken: input.accessToken,
      claims: standardClaims(input.user, scopesOf(input.scope)),
      lifetime: input.lifetime,
    }),
  );
}
