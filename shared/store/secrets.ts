import { config } from '../config.js';
import { AwsJsonClient, defaultCredentials } from './aws-json.js';

/**
 * Secrets Manager, for the two secrets Gatehouse keeps there (the signing key set, the at-rest
 * key): GetSecretValue and PutSecretValue over the AWS JSON client (aws-json.ts, protocol 1.1),
 * so a function reading a secret carries no SDK client. Created on first use: most functions
 * never read a secret.
 */
let cached: AwsJsonClient | undefined;

export function secretsManager(): AwsJsonClient {
  cached ??= new AwsJsonClient({
    service: 'secretsmanager',
    json: { targetPrefix: 'secretsmanager', version: '1.1' },
    region: config().region,
    credentials: defaultCredentials(),
    maxAttempts: 4,
  });
  return cached;
}

/** The secret's current text value. */
export async function readSecretString(secretId: string): Promise<string | undefined> {
  const out = await secretsManager().call('GetSecretValue', { SecretId: secretId });
  return typeof out.SecretString === 'string' ? out.SecretString : undefined;
}

/**
 * Stores a new current value. With `clientRequestToken` the write is idempotent under that
 * version id: the same token with another value is refused (ResourceExistsException).
 */
export async function writeSecretString(
  secretId: string,
  text: string,
  clientRequestToken?: string,
): Promise<void> {
  await secretsManager().call('PutSecretValue', {
    SecretId: secretId,
    SecretString: text,
    ...(clientRequestToken ? { ClientRequestToken: clientRequestToken } : {}),
  });
}
