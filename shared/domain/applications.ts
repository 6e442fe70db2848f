import { randomUUID } from 'node:crypto';
import { randomToken, sha256 } from '../crypto.js';
import {
  type Application,
  createApplication,
  type Owner,
  type Role,
  setClientSecretHash,
} from '../store/applications.js';
import type { Db } from '../store/db.js';
import * as v from './validate.js';

export interface ApplicationInput {
  name: unknown;
  description: unknown;
  url: unknown;
  callbackUrl: unknown;
  grantTypes?: unknown;
}

export function validApplication(input: ApplicationInput) {
  return {
    name: v.text(input.name, 'name', { max: 100 }),
    description: v.text(input.description, 'description', { max: 1000 }),
    url: v.httpUrl(input.url, 'url'),
    // RFC 6749 §3.1.2: the redirection endpoint URI MUST NOT include a fragment.
    callbackUrl: v.httpUrl(input.callbackUrl, 'callbackUrl', { allowFragment: false }),
    grantTypes: v.grantTypes(input.grantTypes),
  };
}

/**
 * Registers an application for an owner (a user, or an organization acting through a member).
 * The client secret is 256 random bits, returned once and stored only as its SHA-256 digest.
 */
export async function registerApplication(
  db: Db,
  owner: Owner,
  input: ApplicationInput,
): Promise<{ app: Application; roles: Role[]; clientSecret: string }> {
  const fields = validApplication(input);
  const clientSecret = randomToken(32);
  const { app, roles } = await createApplication(db, {
    ...fields,
    clientId: randomUUID(),
    secretHash: sha256(clientSecret),
    owner,
  });
  return { app, roles, clientSecret };
}

/** Issues a new client secret; the old one stops working at once. */
export async function resetClientSecret(db: Db, appId: number): Promise<string> {
  const clientSecret = randomToken(32);
  await setClientSecretHash(db, appId, sha256(clientSecret));
  return clientSecret;
}
