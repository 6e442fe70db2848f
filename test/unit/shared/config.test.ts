import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readConfig } from '../../../shared/config.js';

const TABLE = { IDM_TABLE_NAME: 'gatehouse-test' };

describe('readConfig', () => {
  it('refuses to start without a table, in one sentence naming the variable', () => {
    expect(() => readConfig({})).toThrow(
      new Error('Configuration error: IDM_TABLE_NAME is not set (the DynamoDB table to use).'),
    );
    expect(() => readConfig({ IDM_TABLE_NAME: '' })).toThrow(/IDM_TABLE_NAME is not set/);
  });

  it('fills every other setting with its default', () => {
    expect(readConfig(TABLE)).toEqual({
      tableName: 'gatehouse-test',
      logoBucket: 'gatehouse-logos',
      region: 'us-east-1',
      dynamodbEndpoint: undefined,
      s3Endpoint: undefined,
      publicUrl: '',
      documentationUrl: 'https://github.com/gatehouse-idm/gatehouse/blob/main/docs/api.md',
      bcryptCost: 10,
      accessTokenTtl: 3600,
      refreshTokenTtl: 14 * 86_400,
      authorizationCodeTtl: 300,
      sessionIdleTtl: 3600,
      apiTokenTtl: 3600,
      secureCookies: true,
      keyrockEncryptionKey: 'nodejs_idm',
      signingKeysSecret: undefined,
      signingKeysFile: resolve('.data', 'signing-keys.json'),
      atRestKeySecret: undefined,
      atRestKeyFile: resolve('.data', 'at-rest-key'),
      requireEmailVerification: false,
      mailFrom: 'Gatehouse <no-reply@gatehouse.localhost>',
      smtpUrl: undefined,
      sesConfigurationSet: undefined,
    });
  });

  it('requires e-mail verification only when IDM_REQUIRE_EMAIL_VERIFICATION is "true"', () => {
    expect(readConfig({ ...TABLE, IDM_REQUIRE_EMAIL_VERIFICATION: 'true' }).requireEmailVerification).toBe(
      true,
    );
    expect(readConfig({ ...TABLE, IDM_REQUIRE_EMAIL_VERIFICATION: 'false' }).requireEmailVerification).toBe(
      false,
    );
    const mail = readConfig({
      ...TABLE,
      IDM_MAIL_FROM: 'idm@example.com',
      IDM_SMTP_URL: 'smtp://127.0.0.1:1025',
      IDM_SES_CONFIGURATION_SET: 'gh',
    });
    expect([mail.mailFrom, mail.smtpUrl, mail.sesConfigurationSet]).toEqual([
      'idm@example.com',
      'smtp://127.0.0.1:1025',
      'gh',
    ]);
  });

  it('keeps the signing keys in the named secret, else in IDM_SIGNING_KEYS_FILE or under DATA_DIR', () => {
    expect(
      readConfig({ ...TABLE, IDM_SIGNING_KEYS_SECRET: 'arn:aws:secretsmanager:x' }).signingKeysSecret,
    ).toBe('arn:aws:secretsmanager:x');
    expect(readConfig({ ...TABLE, DATA_DIR: '/srv/idm' }).signingKeysFile).toBe('/srv/idm/signing-keys.json');
    expect(readConfig({ ...TABLE, IDM_SIGNING_KEYS_FILE: '/k.json' }).signingKeysFile).toBe('/k.json');
  });

  it("reads Keyrock's password key under Keyrock's own variable name", () => {
    expect(readConfig({ ...TABLE, IDM_ENCRYPTION_KEY: 'k3y' }).keyrockEncryptionKey).toBe('k3y');
  });

  it('returns a frozen object', () => {
    const config = readConfig(TABLE);
    expect(Object.isFrozen(config)).toBe(true);
  });

  it('takes TABLE_NAME when IDM_TABLE_NAME is unset, and prefers IDM_TABLE_NAME', () => {
    expect(readConfig({ TABLE_NAME: 'legacy' }).tableName).toBe('legacy');
    expect(readConfig({ TABLE_NAME: 'legacy', IDM_TABLE_NAME: 'new' }).tableName).toBe('new');
  });

  it('reads the values it is given', () => {
    const config = readConfig({
      ...TABLE,
      IDM_LOGO_BUCKET: 'logos',
      AWS_REGION: 'eu-west-1',
      AWS_DEFAULT_REGION: 'us-west-2',
      IDM_DYNAMODB_ENDPOINT: 'http://localhost:8000',
      IDM_S3_ENDPOINT: 'http://localhost:4569',
      IDM_PUBLIC_URL: 'https://idm.example',
      IDM_DOCUMENTATION_URL: 'https://docs.example',
    });
    expect(config).toMatchObject({
      logoBucket: 'logos',
      region: 'eu-west-1',
      dynamodbEndpoint: 'http://localhost:8000',
      s3Endpoint: 'http://localhost:4569',
      publicUrl: 'https://idm.example',
      documentationUrl: 'https://docs.example',
    });
  });

  it('falls back to AWS_DEFAULT_REGION', () => {
    expect(readConfig({ ...TABLE, AWS_DEFAULT_REGION: 'us-west-2' }).region).toBe('us-west-2');
  });

  it('drops trailing slashes from the public URL', () => {
    expect(readConfig({ ...TABLE, IDM_PUBLIC_URL: 'https://idm.example///' }).publicUrl).toBe(
      'https://idm.example',
    );
    expect(readConfig({ ...TABLE, IDM_PUBLIC_URL: 'https://idm.example/base/' }).publicUrl).toBe(
      'https://idm.example/base',
    );
  });

  it('treats empty endpoints as unset', () => {
    const config = readConfig({ ...TABLE, IDM_DYNAMODB_ENDPOINT: '', IDM_S3_ENDPOINT: '' });
    expect(config.dynamodbEndpoint).toBeUndefined();
    expect(config.s3Endpoint).toBeUndefined();
  });

  it('turns secure cookies off only for IDM_INSECURE_COOKIES=true', () => {
    expect(readConfig({ ...TABLE, IDM_INSECURE_COOKIES: 'true' }).secureCookies).toBe(false);
    expect(readConfig({ ...TABLE, IDM_INSECURE_COOKIES: 'false' }).secureCookies).toBe(true);
    expect(readConfig({ ...TABLE, IDM_INSECURE_COOKIES: '1' }).secureCookies).toBe(true);
  });

  describe.each([
    ['IDM_BCRYPT_COST', 'bcryptCost', 10, 4, 15],
    ['IDM_ACCESS_TOKEN_TTL', 'accessTokenTtl', 3600, 60, 86_400],
    ['IDM_REFRESH_TOKEN_TTL', 'refreshTokenTtl', 14 * 86_400, 300, 365 * 86_400],
    ['IDM_AUTHORIZATION_CODE_TTL', 'authorizationCodeTtl', 300, 10, 600],
    ['IDM_SESSION_IDLE_TTL', 'sessionIdleTtl', 3600, 60, 30 * 86_400],
    ['IDM_API_TOKEN_TTL', 'apiTokenTtl', 3600, 60, 86_400],
  ] as const)('%s', (name, key, fallback, min, max) => {
    const read = (raw: string) => readConfig({ ...TABLE, [name]: raw })[key];
    const sentence = (raw: string) =>
      `Configuration error: ${name} must be an integer from ${min} to ${max}, got "${raw}".`;

    it(`accepts ${min} and ${max}`, () => {
      expect(read(String(min))).toBe(min);
      expect(read(String(max))).toBe(max);
    });

    it('uses the default when empty', () => {
      expect(read('')).toBe(fallback);
    });

    it.each([String(min - 1), String(max + 1), `${min}.5`, 'ten', '-1'])('refuses "%s"', (raw) => {
      expect(() => read(raw)).toThrow(new Error(sentence(raw)));
    });
  });
});
