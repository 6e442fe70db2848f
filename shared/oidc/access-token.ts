import type { JWTPayload } from 'jose';
import { keyrockRoles } from '../domain/lookups.js';
import { resolveRoles } from '../domain/roles.js';
import type { Client } from '../store/applications.js';
import type { Db } from '../store/db.js';
import { subjectOf } from './claims.js';
import { signJwt } from './id-token.js';

/** RFC 9068 §2.1: the `typ` header of a JWT access token. */
export const AT_JWT_TYPE = 'at+jwt';

export interface JwtAccessInput {
  db: Db;
  issuer: string;
  client: Client;
  userId?: number | undefined;
  scope?: string | undefined;
  jti: string;
  iat: number;
  exp: number;
}

/**
 * RFC 9068 §2.2: a JWT access token for an application that chose them. `aud` is the application
 * itself (its client id): Keyrock's resource servers (a PEP proxy, the application's API) act for
 * the application. A user's token carries the roles the user and their organizations hold in it
 * (§2.2.3.1 `roles`, in GET /user's shape), read when the token is minted; a client's own token
 * (client credentials) has the client as subject (§2.2) and no roles.
 */
export async function jwtAccessToken(input: JwtAccessInput): Promise<string> {
  const { client, userId } = input;
  const resolved = userId !== undefined ? await resolveRoles(input.db, userId, client.appId) : undefined;
  const payload: JWTPayload = {
    iss: input.issuer,
    sub: userId !== undefined ? subjectOf(userId) : client.clientId,
    aud: client.clientId,
    client_id: client.clientId,
    // Gatehouse's own claim: the application's id, so GET /user needs no read to find it.
    app_id: client.appId,
    ...(input.scope ? { scope: input.scope } : {}),
    jti: input.jti,
    iat: input.iat,
    exp: input.exp,
    ...(resolved ? keyrockRoles(resolved) : {}),
  };
  return signJwt(payload, AT_JWT_TYPE);
}
