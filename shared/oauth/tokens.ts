import { randomUUID } from 'node:crypto';
import { config } from '../config.js';
import { randomToken, sha256 } from '../crypto.js';
import { jwtAccessToken } from '../oidc/access-token.js';
import type { Client } from '../store/applications.js';
import type { Db } from '../store/db.js';
import { accessTokenValue, type TokenRecord } from '../store/tokens.js';
import { nowSeconds } from '../time.js';

/** Tokens about to be stored (as digests) and handed out (as values). */
export interface Minted {
  accessToken: string;
  refreshToken?: string | undefined;
  expiresIn: number;
  scope?: string | undefined;
  records: Omit<TokenRecord, 'revoked'>[];
  /** OpenID Connect: the ID token issued with them (OIDC Core §3.1.3.3). */
  idToken?: string | undefined;
}

export interface MintInput {
  client: Client;
  userId?: number | undefined;
  scope?: string | undefined;
  /** The chain the tokens belong to; a fresh authorization starts a new one. */
  grantId?: string | undefined;
  withRefresh: boolean;
}

/** 256-bit random tokens (RFC 6750 §5.2, RFC 9700 §4.14), stored only as SHA-256 digests. */
export function mintTokens(input: MintInput): Minted {
  const c = config();
  const now = nowSeconds();
  const grantId = input.grantId ?? randomUUID();
  const base = {
    clientId: input.client.clientId,
    appId: input.client.appId,
    userId: input.userId,
    scope: input.scope,
    grantId,
    issuedAt: now,
  };
  // The value carries the user and application ids for the lookups' first round trip.
  const accessToken = accessTokenValue(input.userId, input.client.appId, randomToken(32));
  const records: Omit<TokenRecord, 'revoked'>[] = [
    { ...base, digest: sha256(accessToken), kind: 'access', expiresAt: now + c.accessTokenTtl },
  ];
  let refreshToken: string | undefined;
  if (input.withRefresh) {
    refreshToken = randomToken(32);
    records.push({
      ...base,
      digest: sha256(refreshToken),
      kind: 'refresh',
      expiresAt: now + c.refreshTokenTtl,
    });
  }
  return { accessToken, refreshToken, expiresIn: c.accessTokenTtl, scope: input.scope, records };
}

/**
 * The tokens a grant hands out, in the application's access token format. A `jwt` application
 * (RFC 9068) gets a signed access token; a user's JWT keeps its record (stored as the digest of
 * the JWT, like any token) so that revocation, grant-chain revocation and introspection still
 * find it, while a client's own JWT (client credentials) is stored nowhere: nothing refers to it.
 */
export async function issueTokens(context: { db: Db; issuer: string }, input: MintInput): Promise<Minted> {
  const minted = mintTokens(input);
  if (input.client.accessTokenFormat !== 'jwt') return minted;
  const [access, ...rest] = minted.records;
  const issuedAt = access!.issuedAt ?? Math.floor(Date.now() / 1000);
  const jwt = await jwtAccessToken({
    db: context.db,
    issuer: context.issuer,
    client: input.client,
    userId: input.userId,
    scope: input.scope,
    jti: randomUUID(),
    iat: issuedAt,
    exp: access!.expiresAt,
  });
  const records = input.userId === undefined ? rest : [{ ...access!, digest: sha256(jwt) }, ...rest];
  return { ...minted, accessToken: jwt, records };
}

/** RFC 6749 §5.1: the successful token response's body (the HTTP layer sends it uncached). */
export interface TokenResponse {
  access_token: string;
  token_type: 'bearer';
  expires_in: number;
  refresh_token?: string;
  scope?: string;
  id_token?: string;
}

export function tokenResponseBody(minted: Minted): TokenResponse {
  return {
    access_token: minted.accessToken,
    token_type: 'bearer',
    expires_in: minted.expiresIn,
    ...(minted.refreshToken ? { refresh_token: minted.refreshToken } : {}),
    ...(minted.scope ? { scope: minted.scope } : {}),
    ...(minted.idToken ? { id_token: minted.idToken } : {}),
  };
}
