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
 */
export async function registerCheckedApplication(
  db: Db,
  owner: Owner,
  fields: ReturnType<typeof applicationFields>,
): Promise<{ app: Application; roles: Role[]; clientSecret: string }> {
  const clientSecret = randomToken(32);
  const { app, roles } = await createApplication(db, {
    ...fields,
    clientId: randomUUID(),
    secretHash: sha256(clientSecret),
    owner,
  });
  return { app, roles, clientSecret };
}

/**
 * Edits an application; grant types, token format and post-logout redirect URIs the input leaves
 * out stay as they are.
 */
export function editApplication(db: Db, current: Application, input: ApplicationInput): Promise<Application> {
  const fields = applicationFields({
    ...input,
    grantTypes: input.grantTypes ?? current.grantTypes,
    accessTokenFormat: input.accessTokenFormat ?? current.accessTokenFormat,
    postLogoutRedirectUris: input.postLogoutRedirectUris ?? current.postLogoutRedirectUris,
  });
  return updateApplication(db, current.id, fields);
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
