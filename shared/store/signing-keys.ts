import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { config } from '../config.js';
import { readSecretString, writeSecretString } from './secrets.js';

/**
 * Where the signing key set (a JSON document with private keys) is kept: in AWS, one Secrets
 * Manager secret (IDM_SIGNING_KEYS_SECRET), readable only by the functions that sign or publish
 * keys (infra/route-functions.ts); locally, a file under DATA_DIR that only its owner may read.
 * The document's shape is the OIDC layer's business (shared/oidc/keys.ts); this module moves text.
 */
export async function readKeySetDocument(): Promise<string | undefined> {
  const secret = config().signingKeysSecret;
  if (secret) {
    return readSecretString(secret);
  }
  try {
    return readFileSync(config().signingKeysFile, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

/**
 * Writes the whole document (the CLI's `keys rotate`, and a local run's first key). `create`
 * only writes a file that does not exist yet, so two local processes starting together keep one
 * key set: the loser gets `false` and reads the winner's.
 */
export async function writeKeySetDocument(
  text: string,
  options: { create?: boolean } = {},
): Promise<boolean> {
  const secret = config().signingKeysSecret;
  if (secret) {
    await writeSecretString(secret, text);
    return true;
  }
  const file = config().signingKeysFile;
  mkdirSync(dirname(file), { recursive: true });
  try {
    writeFileSync(file, text, { mode: 0o600, flag: options.create ? 'wx' : 'w' });
  } catch (error) {
    if (options.create && (error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  }
  chmodSync(file, 0o600);
  return true;
}

/**
 * The first key set's version id. Secrets Manager refuses a second, different value under the
 * same client request token (ResourceExistsException), which makes the first write a
 * compare-and-set: when two cold starts make a first key at once, one set wins and the other
 * process reads it, so no token is ever signed with a key that is not published.
 */
const FIRST_VERSION = '00000000-0000-4000-8000-00000000f1a5';

/**
 * Writes the first key set where there is none yet: `false` when another process wrote one
 * first (read it). In AWS the secret holds CloudFormation's placeholder until then.
 */
export async function createFirstKeySetDocument(text: string): Promise<boolean> {
  const secret = config().signingKeysSecret;
  if (!secret) return writeKeySetDocument(text, { create: true });
  try {
    await writeSecretString(secret, text, FIRST_VERSION);
    return true;
  } catch (error) {
    if ((error as { name?: string }).name === 'ResourceExistsException') return false;
    throw error;
  }
}
