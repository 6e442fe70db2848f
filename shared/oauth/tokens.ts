import { randomUUID } from 'node:crypto';
import { config } from '../config.js';
import { randomToken, sha256 } from '../crypto.js';
import { keyrockJwtAccessToken } from '../domain/keyrock-jwt-issue.js';
import { invalidScope } from '../errors.js';
import { jwtAccessToken } from '../oidc/access-token.js';
import type { Client } from '../store/applications.js';
import type { Db } from '../store/db.js';
import { accessTokenValue, PERMANENT, type TokenRecord } from '../store/tokens.js';
import { nowSeconds } from '../time.js';

/** Tokens about to be stored (as digests) and handed out (as values). */
export interface Minted {
  accessToken: string;
  refreshToken?: string | undefined;
  /** Undefined for a permanent token (RFC 6749 §5.1: expires_in is only RECOMMENDED). */
  expiresIn: number | undefined;
  scope?: string | undefined;
  records: Omit<TokenRecord, 'revoked'>[];
  /** OpenID Connect: the ID token issued with them (OIDC Core §3.1.3.3). */
  idToken?: string | undefined;
}

export interface MintInput {
  client: Client;
  userId?: number | undefined;
  /** An IoT agent's token (Keyrock's password grant with the agent's id): no user. */
  iotAgentId?: string | undefined;
  scope?: string | undefined;
  /** The chain the tokens belong to; a fresh authorization starts a new one. */
  grantId?: string | undefined;
  withRefresh: boolean;
}

/** Keyrock's token types: what a token request's scope asks for. */
export type TokenType = 'bearer' | 'jwt' | 'permanent';

/**
 * The token type a scope asks for (Keyrock: models/model_oauth_server.js validateScope). `jwt` and
 * `permanent` must be among the application's token types; `bearer` with `jwt` contradicts itself.
 * Gatehouse also refuses `jwt` with `permanent`, which Keyrock would sign without `exp`: a token
 * that nothing could ever revoke. RFC 6749 §5.2: invalid_scope.
 */
export function tokenTypeOf(client: Client, scope: string | undefined): TokenType {
  const asked = new Set((scope ?? '').split(' '));
  const allowed = client.tokenTypes ?? [];
  const jwt = asked.has('jwt');
  const permanent = asked.has('permanent');
  if (jwt && asked.has('bearer')) throw invalidScope('The scopes bearer and jwt exclude each other.');
  if (jwt && permanent) {
    throw invalidScope('A jwt token cannot be permanent: it could never be revoked.');
  }
  if (jwt && !allowed.includes('jwt')) throw invalidScope('This application does not issue jwt tokens.');
  if (permanent && !allowed.includes('permanent')) {
    throw invalidScope('This application does not issue permanent tokens.');
  }
  return jwt ? 'jwt' : permanent ? 'permanent' : 'bearer';
}

/** 256-bit random tokens (RFC 6750 §5.2, RFC 9700 §4.14), stored only as SHA-256 digests. */
export function mintTokens(input: MintInput, permanent = false): Minted {
  const c = config();
  const now = nowSeconds();
  const grantId = input.grantId ?? randomUUID();
  const base = {
    clientId: input.client.clientId,
    appId: input.client.appId,
    userId: input.userId,
    ...(input.iotAgentId !== undefined ? { iotAgentId: input.iotAgentId } : {}),
    scope: input.scope,
    grantId,
    issuedAt: now,
  };
  // The value carries the user and application ids for the lookups' first round trip.
  const accessToken = accessTokenValue(input.userId, input.client.appId, randomToken(32));
  const records: Omit<TokenRecord, 'revoked'>[] = [
    {
      ...base,
      digest: sha256(accessToken),
      kind: 'access',
      expiresAt: permanent ? PERMANENT : now + c.accessTokenTtl,
    },
  ];
  let refreshToken: string | undefined;
  // Keyrock issues no refresh token with a permanent one: it would never be needed.
  if (input.withRefresh && !permanent) {
    refreshToken = randomToken(32);
    records.push({
      ...base,
      digest: sha256(refreshToken),
      kind: 'refresh',
      expiresAt: now + c.refreshTokenTtl,
    });
  }
  return {
    accessToken,
    refreshToken,
    expiresIn: permanent ? undefined : c.accessTokenTtl,
    scope: input.scope,
    records,
  };
}

/**
 * The tokens a grant hands out, in the application's access token format. A `jwt` application
 * (RFC 9068) gets a signed access token; a user's JWT keeps its record (stored as the digest of
 * the JWT, like any token) so that revocation, grant-chain revocation and introspection still
 * find it, while a client's own JWT (client credentials) is stored nowhere: nothing refers to it.
 */
export async function issueTokens(context: { db: Db; issuer: string }, input: MintInput): Promise<Minted> {
  const type = tokenTypeOf(input.client, input.scope);
  const minted = mintTokens(input, type === 'permanent');
  if (type === 'jwt') return keyrockJwt(context.db, input, minted);
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

/**
 * Keyrock's `jwt` type (asked for with `scope=jwt`; it takes precedence over the RFC 9068 format):
 * the access token is the HS256 JWT (shared/domain/keyrock-jwt-issue.ts) and, as in Keyrock, is
 * stored nowhere; a refresh token, when issued, is stored as usual and refreshes into a new JWT.
 */
async function keyrockJwt(db: Db, input: MintInput, minted: Minted): Promise<Minted> {
  const [access, ...rest] = minted.records;
  const accessToken = await keyrockJwtAccessToken(db, {
    client: input.client,
    userId: input.userId,
    iotAgentId: input.iotAgentId,
    iat: access!.issuedAt ?? nowSeconds(),
    exp: access!.expiresAt,
  });
  return { ...minted, accessToken, records: rest };
}

/** RFC 6749 §5.1: the successful token response's body (the HTTP layer sends it uncached). */
export interface TokenResponse {
  access_token: string;
  token_type: 'bearer';
  expires_in?: number;
  refresh_token?: string;
  scope?: string;
  id_token?: string;
}

export function tokenResponseBody(minted: Minted): TokenResponse {
  return {
    access_token: minted.accessToken,
    token_type: 'bearer',
    ...(minted.expiresIn !== undefined ? { expires_in: minted.expiresIn } : {}),
    ...(minted.refreshToken ? { refresh_token: minted.refreshToken } : {}),
    ...(minted.scope ? { scope: minted.scope } : {}),
    ...(minted.idToken ? { id_token: minted.idToken } : {}),
  };
}
