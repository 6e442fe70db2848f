import { createRemoteJWKSet, decodeJwt, errors, type JWTPayload, jwtVerify } from 'jose';
import { config } from '../config.js';
import { sha256 } from '../crypto.js';
import { invalidToken } from '../errors.js';
import { SIGNING_ALGS } from '../model.js';
import type { TokenRecord } from '../store/tokens.js';

/**
 * RFC 9068 JWT access tokens at the resource endpoints (GET /user, /users/:id, UserInfo,
 * /applications.json, introspection). The token is checked by its signature and claims alone,
 * without reading it from the table: its state lives in the JWT, so a revoked JWT stays usable
 * there until it expires (docs/decisions.md). The public keys come from the issuer's own JWKS
 * (fetched once per container, again for an unknown `kid`): these functions never read the
 * private signing keys, which only the signing functions may (infra/grants.ts).
 */
const UNKNOWN = 'The access token is unknown, expired or revoked.';

let keys: { url: string; set: ReturnType<typeof createRemoteJWKSet> } | undefined;

function publishedKeys(issuer: string) {
  const url = `${issuer}/.well-known/jwks.json`;
  if (keys?.url !== url) keys = { url, set: createRemoteJWKSet(new URL(url)) };
  return keys.set;
}

const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]']);

/**
 * The issuer a token must name: the configured one, or on loopback the same server under another
 * loopback name (a local run is reached as localhost and as 127.0.0.1, as shared/oauth/metadata.ts
 * allows). The keys are always fetched from the configured URL, never from what a token says.
 */
function expectedIssuer(configured: string, claimed: unknown): string {
  if (typeof claimed !== 'string' || claimed === configured) return configured;
  try {
    const [a, b] = [new URL(configured), new URL(claimed)];
    const loopback = LOOPBACK.has(a.hostname) && LOOPBACK.has(b.hostname);
    const same = loopback && a.protocol === b.protocol && a.port === b.port && b.pathname === '/';
    return same ? claimed : configured;
  } catch {
    return configured;
  }
}

/** The verified JWT as a token record; 401 invalid_token for anything that does not verify. */
export async function verifyJwtAccessToken(value: string): Promise<TokenRecord> {
  // RFC 9068 §4: the issuer must be the one expected; the keys are looked up only there.
  const configured = config().publicUrl;
  if (!configured) {
    throw invalidToken('JWT access tokens are accepted only where IDM_PUBLIC_URL names the issuer.');
  }
  let payload: JWTPayload;
  try {
    const issuer = expectedIssuer(configured, decodeJwt(value).iss);
    ({ payload } = await jwtVerify(value, publishedKeys(configured), {
      issuer,
      // RFC 9068 §4: `typ` must be at+jwt, so an ID token cannot pass for an access token.
      typ: 'at+jwt',
      algorithms: [...SIGNING_ALGS],
      requiredClaims: ['sub', 'client_id', 'jti', 'iat', 'exp'],
    }));
  } catch (error) {
    // Our own JWKS being unreachable is our failure (a 500), not the caller's.
    if (error instanceof errors.JOSEError && !(error instanceof errors.JWKSTimeout))
      throw invalidToken(UNKNOWN);
    throw error;
  }
  const clientId = payload.client_id;
  const appId = payload.app_id;
  if (typeof clientId !== 'string' || !Number.isSafeInteger(appId)) throw invalidToken(UNKNOWN);
  const sub = payload.sub!;
  return {
    digest: sha256(value),
    kind: 'access',
    clientId,
    appId: appId as number,
    // A client's own token has the client as subject (RFC 9068 §2.2); a user's, the user's id.
    userId: sub !== clientId && /^\d{1,15}$/.test(sub) ? Number(sub) : undefined,
    scope: typeof payload.scope === 'string' ? payload.scope : undefined,
    grantId: payload.jti!,
    expiresAt: payload.exp!,
    issuedAt: payload.iat,
    revoked: false,
  };
}
