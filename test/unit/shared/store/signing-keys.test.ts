import { PutSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { mockClient } from 'aws-sdk-client-mock';
import { beforeEach, describe, expect, it } from 'vitest';

/*
 * In AWS the first key set is written by whichever function needs it first. Secrets Manager
 * itself has no local emulator, so its two answers (the write, and the refusal of a second value
 * under the same client request token) are played by a client mock.
 */
process.env.IDM_TABLE_NAME = 'unit';
process.env.IDM_SIGNING_KEYS_SECRET = 'arn:aws:secretsmanager:us-east-1:123456789012:secret:keys';
const { createFirstKeySetDocument } = await import('../../../../shared/store/signing-keys.js');

const sm = mockClient(SecretsManagerClient);

beforeEach(() => sm.reset());

describe('the first signing key set in Secrets Manager', () => {
  it('is written as a version with a fixed client request token', async () => {
    sm.on(PutSecretValueCommand).resolves({});
    expect(await createFirstKeySetDocument('{"keys":[]}')).toBe(true);
    const input = sm.commandCalls(PutSecretValueCommand)[0]!.args[0].input;
    expect(input).toMatchObject({
      SecretId: process.env.IDM_SIGNING_KEYS_SECRET,
      SecretString: '{"keys":[]}',
    });
    expect(input.ClientRequestToken).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('loses to a set another process wrote first (the same token with another value is refused)', async () => {
    sm.on(PutSecretValueCommand).rejects(
      Object.assign(new Error('exists'), { name: 'ResourceExistsException' }),
    );
    expect(await createFirstKeySetDocument('{"keys":[]}')).toBe(false);
  });

  it('passes any other failure on', async () => {
    sm.on(PutSecretValueCommand).rejects(
      Object.assign(new Error('denied'), { name: 'AccessDeniedException' }),
    );
    await expect(createFirstKeySetDocument('{"keys":[]}')).rejects.toThrow('denied');
  });
});
