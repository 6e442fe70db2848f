import { randomBytes } from 'node:crypto';
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { config } from '../config.js';
import { readSecretString } from './secrets.js';

/**
 * The key material that encrypts secrets Gatehouse must read back (authenticator-app secrets,
 * Keyrock jwt secrets) at rest (docs/decisions.md). In AWS, one Secrets Manager secret whose
 * random value CloudFormation generates at deployment (IDM_AT_REST_KEY_SECRET), readable only by
 * the functions whose routes say `atRestKey: 'read'`; locally,
 * a file under DATA_DIR that only its owner may read, made on first use. This module moves text;
 * the domain derives the AES key from it.
 */
export async function readAtRestKeyMaterial(): Promise<string> {
  const secret = config().atRestKeySecret;
  if (secret) {
    const value = await readSecretString(secret);
    if (!value) throw new Error('The at-rest key secret is empty.');
    return value;
  }
  const file = config().atRestKeyFile;
  try {
    return readFileSync(file, 'utf8').trim();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  mkdirSync(dirname(file), { recursive: true });
  try {
    // `wx`: two local processes starting together keep one key (the loser reads the winner's).
    writeFileSync(file, randomBytes(32).toString('base64url'), { mode: 0o600, flag: 'wx' });
    chmodSync(file, 0o600);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  return readFileSync(file, 'utf8').trim();
}
