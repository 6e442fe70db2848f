import { randomBytes } from 'node:crypto';
import type { KeyrockTokenType } from '../model.js';
import { requireApplication, setSealedJwtSecret } from '../store/applications.js';
import type { Db } from '../store/db.js';
import { sealedBox } from './sealed.js';

/**
 * The per-application secret of Keyrock's `jwt` token type: the HS256 key its access tokens are
 * signed with, which the application's PEP proxy also holds (PEP_TOKEN_SECRET) to check them
 * itself. Gatehouse must be able to read it back (to sign, to verify at GET /user, and to show it
 * to the application's managers, as Keyrock does), so it is encrypted rather than hashed: AES-256-GCM
 * under a key derived with HKDF from the deployment's at-rest key material (the one that also
 * protects authenticator-app secrets; a distinct `info` label gives this purpose its own key), and
 * bound to its client id by the authenticated data, so a ciphertext copied onto another
 * application does not decrypt. A copy of the table alone reveals no secret.
 */

const box = sealedBox<string>('gatehouse keyrock jwt_secret v1', 'gatehouse:jwt_secret');

/** Starts reading the key material (once per container) so it overlaps the caller's table read. */
export const warmJwtSecretKey = (): void => box.warm();

/**
 * A new secret: 32 random bytes in hex. Keyrock makes 16 hex characters (64 bits); RFC 7518 §3.2
 * asks for a key at least as long as the hash (256 bits) for HS256. The PEP proxy uses the string
 * as the key's bytes, as jose does here, so hex keeps it a plain environment variable.
 */
export function newJwtSecret(): string {
  return randomBytes(32).toString('hex');
}

/** `v1.<iv>.<ciphertext and tag>` (base64url), bound to the client id. */
export const sealJwtSecret = (clientId: string, secret: string): Promise<string> =>
  box.seal(clientId, secret);

// Opened secrets by sealed value: GET /user opens the same one on every request of a proxy.
const opened = new Map<string, string>();

export async function openJwtSecret(clientId: string, sealed: string): Promise<string> {
  const cacheKey = `${clientId} ${sealed}`;
  const hit = opened.get(cacheKey);
  if (hit !== undefined) return hit;
  const secret = await box.open(clientId, sealed);
  if (opened.size >= 1000) opened.clear();
  opened.set(cacheKey, secret);
  return secret;
}

/**
 * The sealed secret an application should have after a change of its token types: kept while
 * `jwt` stays (Keyrock makes a new one on every update that names token_types, which would
 * silently break every proxy holding the old one), a new one when `jwt` is added, none without it.
 */
export async function jwtSecretFor(
  clientId: string,
  tokenTypes: readonly KeyrockTokenType[],
  current: string | undefined,
): Promise<string | undefined> {
  if (!tokenTypes.includes('jwt')) return undefined;
  return current ?? sealJwtSecret(clientId, newJwtSecret());
}

/**
 * Stores an existing secret as it is (`idm import keyrock`: the PEP proxies of a moved
 * application keep the PEP_TOKEN_SECRET they were configured with). Sealed like any other.
 */
export async function setJwtSecret(db: Db, appId: number, secret: string): Promise<void> {
  const app = await requireApplication(db, appId);
  await setSealedJwtSecret(db, app, await sealJwtSecret(app.clientId, secret));
}

/** The application's jwt secret in clear, or null when it has none. */
export async function jwtSecretOf(app: {
  clientId: string;
  jwtSecret?: string | undefined;
}): Promise<string | null> {
  return app.jwtSecret ? openJwtSecret(app.clientId, app.jwtSecret) : null;
}

/**
 * The secret as GET /v1/applications/:id and the portal show it: to whoever manages the
 * application (Provider, an administrator), who configures its PEP proxy with it; null for others.
 */
export function jwtSecretForManager(access: {
  app: { clientId: string; jwtSecret?: string | undefined };
  manage: boolean;
}): Promise<string | null> {
  return access.manage ? jwtSecretOf(access.app) : Promise.resolve(null);
}
