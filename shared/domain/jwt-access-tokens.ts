import {
  createRemoteJWKSet,
  decodeJwt,
  decodeProtectedHeader,
  errors,
  type JWTPayload,
  jwtVerify,
} from 'jose';
import { config } from '../config.js';
import { sha256 } from '../crypto.js';
import { AppError, invalidToken } from '../errors.js';
import { SIGNING_ALGS } from '../model.js';
import type { TokenRecord } from '../store/tokens.js';

/**
 * RFC 9068 JWT access tokens at the resource endpoints (GET /user, /users/:id, UserInfo,
 * /applications.json), introspection and revocation, and ID tokens as logout hints. The token is
 * checked by its signature and claims alone, without reading it from the table: its state lives in
 * the JWT, so a revoked JWT stays usable at the lookups until it expires; introspection also reads
 * the `jti` deny-list (docs/decisions.md). The public keys come from the issuer's own JWKS
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

/**
 * A JWT this service signed, verified with the published keys and the expected issuer (RFC 9068
 * §4, OIDC Core §3.1.3.7). `acceptExpired` lets a token past its `exp` through once everything
 * else (signature, issuer, `typ`, required claims: jose checks them all before `exp`) holds, for
 * RP-Initiated Logout 1.0 §2, where an expired ID token still names its user and client.
 * Anything that does not verify is 401 invalid_token; our own JWKS unreachable is our failure.
 */
export async function verifyIssuedJwt(
  value: string,
  options: { typ?: string; requiredClaims: string[]; acceptExpired?: boolean },
): Promise<{ payload: JWTPayload; typ: string | undefined }> {
  const configured = config().publicUrl;
  if (!configured) {
    throw invalidToken('JWTs are accepted only where IDM_PUBLIC_URL names the issuer.');
  }
  try {
    const issuer = expectedIssuer(configured, decodeJwt(value).iss);
    const { payload, protectedHeader } = await jwtVerify(value, publishedKeys(configured), {
      issuer,
      ...(options.typ ? { typ: options.typ } : {}),
      algorithms: [...SIGNING_ALGS],
      requiredClaims: options.requiredClaims,
    });
    return { payload, typ: protectedHeader.typ };
  } catch (error) {
    if (options.acceptExpired && error instanceof errors.JWTExpired && error.claim === 'exp') {
      return { payload: error.payload, typ: decodeProtectedHeader(value).typ };
    }
    if (error instanceof errors.JOSEError && !(error instanceof errors.JWKSTimeout))
      throw invalidToken(UNKNOWN);
    throw error;
  }
}

/** A verified JWT access token as a token record, with its `jti` (the deny-list's key). */
export type VerifiedJwt = TokenRecord & { jti: string };

/** The verified JWT as a token record; 401 invalid_token for anything that does not verify. */
export async function verifyJwtAccessToken(value: string): Promise<VerifiedJwt> {
  // RFC 9068 §4: the issuer must be the one expected; the keys are looked up only there.
  // `typ` must be at+jwt, so an ID token cannot pass for an access token.
  const { payload } = await verifyIssuedJwt(value, {
    typ: 'at+jwt',
    requiredClaims: ['sub', 'client_id', 'jti', 'iat', 'exp'],
  });
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
    jti: payload.jti!,
    expiresAt: payload.exp!,
    issuedAt: payload.iat,
    revoked: false,
  };
}

/** For introspection and revocation, where a JWT that does not verify is simply not a token of ours. */
export async function jwtAccessTokenOrUndefined(value: string): Promise<VerifiedJwt | undefined> {
  try {
    return await verifyJwtAccessToken(value);
  } catch (error) {
    if (error instanceof AppError) return undefined;
    throw error;
  }
}
