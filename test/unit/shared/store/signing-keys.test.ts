import { beforeEach, describe, expect, it } from 'vitest';
import { failure, ok, scriptedAws } from '../../../support/scripted-aws.js';

/*
 * In AWS the first key set is written by whichever function needs it first. Secrets Manager
 * itself has no local emulator, so its two answers (the write, and the refusal of a second value
 * under the same client request token) are played by a scripted endpoint.
 */
process.env.IDM_TABLE_NAME = 'unit';
process.env.IDM_SIGNING_KEYS_SECRET = 'arn:aws:secretsmanager:us-east-1:123456789012:secret:keys';
process.env.AWS_ACCESS_KEY_ID = 'unit';
process.env.AWS_SECRET_ACCESS_KEY = 'unit';
const { createFirstKeySetDocument } = await import('../../../../shared/store/signing-keys.js');
const { secretsManager } = await import('../../../../shared/store/secrets.js');

const sm = scriptedAws(secretsManager());

beforeEach(() => sm.reset());

describe('the first signing key set in Secrets Manager', () => {
  it('is written as a version with a fixed client request token', async () => {
    sm.on('PutSecretValue', ok({ VersionId: '00000000-0000-4000-8000-00000000f1a5' }));
    expect(await createFirstKeySetDocument('{"keys":[]}')).toBe(true);
    expect(sm.headers[0]!['X-Amz-Target']).toBe('secretsmanager.PutSecretValue');
    expect(sm.headers[0]!['Content-Type']).toBe('application/x-amz-json-1.1');
    const input = sm.calls('PutSecretValue')[0]!;
    expect(input).toMatchObject({
      SecretId: process.env.IDM_SIGNING_KEYS_SECRET,
      SecretString: '{"keys":[]}',
    });
    expect(input.ClientRequestToken).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('loses to a set another process wrote first (the same token with another value is refused)', async () => {
    sm.on('PutSecretValue', failure(400, 'ResourceExistsException', 'exists'));
    expect(await createFirstKeySetDocument('{"keys":[]}')).toBe(false);
  });

  it('passes any other failure on', async () => {
    sm.on('PutSecretValue', failure(400, 'AccessDeniedException', 'denied'));
    await expect(createFirstKeySetDocument('{"keys":[]}')).rejects.toThrow('denied');
  });
});
