import { invalidToken } from '../errors.js';
import { userInApplicationWithClient } from '../store/access.js';
import { type Client, getClient } from '../store/applications.js';
import type { Db } from '../store/db.js';
import type { TokenRecord } from '../store/tokens.js';
import { looksLikeJwt } from './access-tokens.js';
import { openJwtSecret, warmJwtSecretKey } from './jwt-secrets.js';
import { type ResolvedRoles, resolved } from './roles.js';

/**
 * Keyrock's `jwt` token type at GET /user (Keyrock: controllers/oauth2/oauth2.js authenticate_token
 * → authenticate_jwt): when `app_id` names an application with that type, the token is an HS256
 * JWT signed with the application's own secret, checked by its signature and `exp` instead of
 * being read (none is stored). The roles and the decision are then worked out from the live
 * roles, as for any token, so they never go stale with the token.
 *
 * Round trips: one. The token carries, in a claim its signature covers, the ids the lookup reads
 * by (the user, the application, and the organizations that held roles in it when it was
 * issued), so the client item (with the secret), the user's partition, the catalogue and those
 * organizations' role items are read together; only a membership added since costs a second
 * round for its roles.
 */

/** The private claim with Gatehouse's ids (Keyrock's `id` may be a moved user's Keyrock id). */
export const IDS_CLAIM = 'gatehouse';

export interface KeyrockJwtIds {
  /** Gatehouse's user id, for a user's token. */
  user?: number;
  /** Gatehouse's application id. */
  app: number;
  /** The user's organizations that held roles in the application at issue (at most 100). */
  orgs?: number[];
  /** An IoT agent's id, for an agent's token. */
  iot?: string;
}

/** One part of a compact JWS, parsed, or undefined. No signature is checked here. */
function part(value: string, index: number): Record<string, unknown> | undefined {
  try {
    const parsed: unknown = JSON.parse(Buffer.from(value.split('.')[index]!, 'base64url').toString('utf8'));
    return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)
      ? (parsed as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}

/**
 * An HS256 JWT: Keyrock's `jwt` type. Gatehouse's own JWT access tokens (RFC 9068) are signed
 * RS256 or ES256 with the OIDC keys, and its opaque tokens are no JWTs, so the header tells them apart.
 */
export function isKeyrockJwt(value: string): boolean {
  return looksLikeJwt(value) && part(value, 0)?.alg === 'HS256';
}

const isId = (v: unknown): v is number => Number.isSafeInteger(v) && (v as number) > 0;

/** The ids claim, if well-formed (it is trusted only once the signature holds). */
export function idsOf(claim: unknown): KeyrockJwtIds | undefined {
  if (typeof claim !== 'object' || claim === null) return undefined;
  const c = claim as Record<string, unknown>;
  if (!isId(c.app)) return undefined;
  if (c.user !== undefined && !isId(c.user)) return undefined;
  if (c.iot !== undefined && (typeof c.iot !== 'string' || c.iot.length > 100)) return undefined;
  if (c.orgs !== undefined && (!Array.isArray(c.orgs) || c.orgs.length > 100 || !c.orgs.every(isId))) {
    return undefined;
  }
  return {
    app: c.app,
    ...(c.user !== undefined ? { user: c.user as number } : {}),
    ...(c.orgs !== undefined ? { orgs: c.orgs as number[] } : {}),
    ...(c.iot !== undefined ? { iot: c.iot as string } : {}),
  };
}

export type KeyrockJwtRead =
  | { token: TokenRecord; roles: ResolvedRoles | undefined; appClient: Client }
  | 'invalid'
  | 'unknown-app';

/**
 * The token checked against `appClientId`'s secret, with the roles of its user in that
 * application. `unknown-app`: no such application (Keyrock's 401 "Unauthorized"); `invalid`: the
 * application has no `jwt` type, or the token was not signed with its secret, has expired, or
 * names another application (Keyrock's 401 for an invalid token).
 */
export async function keyrockJwtAndRoles(
  db: Db,
  value: string,
  appClientId: string,
): Promise<KeyrockJwtRead> {
  const ids = idsOf(part(value, 1)?.[IDS_CLAIM]);
  if (!ids) return 'invalid';
  // The key material (once per container) and the verifier load while the table is read.
  warmJwtSecretKey();
  const verifier = import('./keyrock-jwt-verify.js');
  verifier.catch(() => undefined);
  const read =
    ids.user !== undefined
      ? await userInApplicationWithClient(db, ids.user, ids.app, appClientId, ids.orgs ?? [])
      : { found: undefined, client: await getClient(db, appClientId) };
  const client = read.client;
  if (!client) return 'unknown-app';
  if (!client.tokenTypes?.includes('jwt') || !client.jwtSecret || client.appId !== ids.app) return 'invalid';
  const { verifiedHs256 } = await verifier;
  const payload = await verifiedHs256(value, await openJwtSecret(client.clientId, client.jwtSecret));
  if (payload?.app_id !== client.clientId) return 'invalid';
  const token: TokenRecord = {
    digest: '',
    kind: 'access',
    clientId: client.clientId,
    appId: client.appId,
    userId: ids.user,
    ...(ids.iot !== undefined ? { iotAgentId: ids.iot } : {}),
    grantId: '',
    expiresAt: payload.exp!,
    issuedAt: payload.iat,
    revoked: false,
  };
  if (read.found === undefined) return { token, roles: undefined, appClient: client };
  const roles = resolved(read.found);
  // As for every token: a disabled user's stops working at once (shared/domain/access-tokens.ts).
  if (roles?.user.enabled === false) throw invalidToken('The user of this access token is disabled.');
  return { token, roles, appClient: client };
}
