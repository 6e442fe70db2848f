import { randomUUID } from 'node:crypto';
import { randomToken, sha256 } from '../crypto.js';
import {
  type Application,
  createApplication,
  deleteApplication,
  type Owner,
  type Role,
  setClientSecretHash,
  updateApplication,
} from '../store/applications.js';
import type { Db } from '../store/db.js';
import { jwtSecretFor, sealJwtSecret } from './jwt-secrets.js';
import { type ApplicationInput, applicationFields } from './validate.js';

/**
 * Registers an application for an owner (a user, or an organization acting through a member).
 * The client secret is 256 random bits, returned once and stored only as its SHA-256 digest.
 */
export function registerApplication(
  db: Db,
  owner: Owner,
  input: ApplicationInput,
): Promise<{ app: Application; roles: Role[]; clientSecret: string }> {
  return registerCheckedApplication(db, owner, applicationFields(input));
}

/**
 * The registration itself, for fields already checked: by the portal's rules above, or by
 * Keyrock's /v1 rules (shared/domain/application-admin.ts), which accept what Keyrock accepts.
 * `moved`: an application moved from Keyrock keeps the client id and secret its clients hold
 * (`idm import keyrock`); the secret is stored as every other one, as its digest. A client id
 * already registered is a conflict (409, field `clientId`).
 */
export async function registerCheckedApplication(
  db: Db,
  owner: Owner,
  fields: ReturnType<typeof applicationFields>,
  moved?: { clientId: string; clientSecret: string; jwtSecret?: string | null },
): Promise<{ app: Application; roles: Role[]; clientSecret: string }> {
  const clientSecret = moved?.clientSecret ?? randomToken(32);
  const clientId = moved?.clientId ?? randomUUID();
  // Keyrock's `jwt` token type: the application gets its HS256 secret now (jwt-secrets.ts); a
  // moved one keeps the secret Keyrock gave it, written with the application in one transaction.
  const movedJwtSecret = fields.tokenTypes.includes('jwt') ? moved?.jwtSecret : undefined;
  const { app, roles } = await createApplication(db, {
    ...fields,
    jwtSecret: movedJwtSecret
      ? await sealJwtSecret(clientId, movedJwtSecret)
      : await jwtSecretFor(clientId, fields.tokenTypes, undefined),
    clientId,
    secretHash: sha256(clientSecret),
    owner,
  });
  return { app, roles, clientSecret };
}

/**
 * Edits an application; grant types, token format, Keyrock token types and post-logout redirect
 * URIs the input leaves out stay as they are.
 */
export function editApplication(db: Db, current: Application, input: ApplicationInput): Promise<Application> {
  const fields = applicationFields({
    ...input,
    grantTypes: input.grantTypes ?? current.grantTypes,
    accessTokenFormat: input.accessTokenFormat ?? current.accessTokenFormat,
    postLogoutRedirectUris: input.postLogoutRedirectUris ?? current.postLogoutRedirectUris,
    tokenTypes: input.tokenTypes ?? current.tokenTypes,
  });
  return updateCheckedApplication(db, current, fields);
}

/**
 * Writes checked fields (the portal's, or /v1's by Keyrock's rules) to both items; the `jwt`
 * token type's secret follows the token types (jwt-secrets.ts `jwtSecretFor`).
 */
export async function updateCheckedApplication(
  db: Db,
  current: Application,
  fields: ReturnType<typeof applicationFields>,
): Promise<Application> {
  const jwtSecret = await jwtSecretFor(current.clientId, fields.tokenTypes, current.jwtSecret);
  return updateApplication(db, current.id, { ...fields, jwtSecret: jwtSecret ?? null });
}

/** Deletes an application with its roles, permissions and authorizations. */
export function removeApplication(db: Db, appId: number): Promise<void> {
  return deleteApplication(db, appId);
}

/** Issues a new client secret; the old one stops working at once. */
export async function resetClientSecret(db: Db, appId: number): Promise<string> {
  const clientSecret = randomToken(32);
  await setClientSecretHash(db, appId, sha256(clientSecret));
  return clientSecret;
}
