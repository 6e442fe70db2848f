import { randomUUID } from 'node:crypto';
import { config } from '../config.js';
import { randomToken, sha256 } from '../crypto.js';
import type { Client } from '../store/applications.js';
import { accessTokenValue, type TokenRecord } from '../store/tokens.js';
import { nowSeconds } from '../time.js';

/** Tokens about to be stored (as digests) and handed out (as values). */
export interface Minted {
  accessToken: string;
  refreshToken?: string | undefined;
  expiresIn: number;
  scope?: string | undefined;
  records: Omit<TokenRecord, 'revoked'>[];
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

/** RFC 6749 §5.1: the successful token response's body (the HTTP layer sends it uncached). */
export interface TokenResponse {
  access_token: string;
  token_type: 'bearer';
  expires_in: number;
  refresh_token?: string;
  scope?: string;
}

export function tokenResponseBody(minted: Minted): TokenResponse {
  return {
    access_token: minted.accessToken,
    token_type: 'bearer',
    expires_in: minted.expiresIn,
    ...(minted.refreshToken ? { refresh_token: minted.refreshToken } : {}),
    ...(minted.scope ? { scope: minted.scope } : {}),
  };
}
