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
export async function registerApplication(
  db: Db,
  owner: Owner,
  input: ApplicationInput,
): Promise<{ app: Application; roles: Role[]; clientSecret: string }> {
  const fields = applicationFields(input);
  const clientSecret = randomToken(32);
  const { app, roles } = await createApplication(db, {
    ...fields,
    clientId: randomUUID(),
    secretHash: sha256(clientSecret),
    owner,
  });
  return { app, roles, clientSecret };
}

/** Edits an application; grant types and token format the input leaves out stay as they are. */
export function editApplication(db: Db, current: Application, input: ApplicationInput): Promise<Application> {
  const fields = applicationFields({
    ...input,
    grantTypes: input.grantTypes ?? current.grantTypes,
    accessTokenFormat: input.accessTokenFormat ?? current.accessTokenFormat,
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
