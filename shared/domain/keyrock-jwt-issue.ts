import { SignJWT } from 'jose';
import { invalidGrant } from '../errors.js';
import type { Client } from '../store/applications.js';
import type { Db } from '../store/db.js';
import { openJwtSecret } from './jwt-secrets.js';
import { IDS_CLAIM, type KeyrockJwtIds } from './keyrock-jwt.js';
import { iotAgentAnswer, userAnswer } from './lookups.js';
import { resolveRoles } from './roles.js';

/**
 * An access token of Keyrock's `jwt` type (Keyrock: models/model_oauth_server.js saveToken →
 * generateJwtToken): HS256 with the application's own secret, whose payload is what GET /user
 * answers for the same token (the user with `type: "user"`, roles and organizations in the
 * application, `app_id`, `trusted_apps`; an IoT agent's body; or only the application for a
 * client's own token), with `iat` and `exp`. A PEP proxy that holds the secret (PEP_TOKEN_SECRET)
 * reads it without asking; GET /user checks it and answers from the live roles. Gatehouse adds
 * one claim of its own ids (shared/domain/keyrock-jwt.ts) so that the check reads in one round trip.
 */
export async function keyrockJwtAccessToken(
  db: Db,
  input: {
    client: Client;
    userId?: number | undefined;
    iotAgentId?: string | undefined;
    iat: number;
    exp: number;
  },
): Promise<string> {
  const { client } = input;
  if (!client.jwtSecret) throw new Error(`Application ${client.clientId} has the jwt type but no secret.`);
  const keyrock = { app_id: client.clientId, trusted_apps: client.trusted ?? [] };
  const ids: KeyrockJwtIds = { app: client.appId };
  let body: Record<string, unknown> = keyrock;
  if (input.userId !== undefined) {
    const roles = await resolveRoles(db, input.userId, client.appId);
    if (!roles) throw invalidGrant('The user no longer exists.');
    body = { ...userAnswer(roles, keyrock), type: 'user' };
    ids.user = input.userId;
    const orgs = roles.memberships.filter((m) => m.roles.length > 0).map((m) => m.membership.orgId);
    if (orgs.length > 0) ids.orgs = orgs.slice(0, 100);
  } else if (input.iotAgentId !== undefined) {
    body = iotAgentAnswer(input.iotAgentId, keyrock);
    ids.iot = input.iotAgentId;
  }
  const secret = new TextEncoder().encode(await openJwtSecret(client.clientId, client.jwtSecret));
  return new SignJWT({ ...body, [IDS_CLAIM]: ids })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setIssuedAt(input.iat)
    .setExpirationTime(input.exp)
    .sign(secret);
}
