import { join, resolve } from 'node:path';

/**
 * The service's configuration, read once per process (a Lambda cold start) from the environment
 * into a frozen, typed object. A missing or malformed value fails fast with a sentence that names
 * the variable, instead of surfacing later as an odd runtime error.
 */
export interface Config {
  /** DynamoDB table holding every item (single-table design, see docs/data-model.md). */
  readonly tableName: string;
  /** S3 bucket for application logos. */
  readonly logoBucket: string;
  readonly region: string;
  /** Set only for local runs (DynamoDB Local / s3rver); unset in AWS. */
  readonly dynamodbEndpoint: string | undefined;
  readonly s3Endpoint: string | undefined;
  /** Public base URL of the service (OAuth issuer, absolute links). Empty: derive from the request. */
  readonly publicUrl: string;
  readonly documentationUrl: string;
  readonly bcryptCost: number;
  readonly accessTokenTtl: number;
  readonly refreshTokenTtl: number;
  readonly authorizationCodeTtl: number;
  readonly sessionIdleTtl: number;
  /** Lifetime of a Keyrock API token (`X-Auth-Token`, POST /v1/auth/tokens), seconds. */
  readonly apiTokenTtl: number;
  /** Whether session cookies carry `Secure` (off only for plain-HTTP localhost). */
  readonly secureCookies: boolean;
  /**
   * Keyrock's `password_encryption.key` (its IDM_ENCRYPTION_KEY), for password hashes moved from
   * Keyrock without a salt; Keyrock's own default when unset.
   */
  readonly keyrockEncryptionKey: string;
  /**
   * Where the signing keys (ID tokens, JWT access tokens) live: the AWS Secrets Manager secret
   * (name or ARN) when set, as in AWS; otherwise the JSON file `signingKeysFile` (local runs).
   */
  readonly signingKeysSecret: string | undefined;
  /** Default DATA_DIR/signing-keys.json, next to the local run's DynamoDB files. */
  readonly signingKeysFile: string;
  /**
   * The key material that encrypts authenticator-app (TOTP) and Keyrock jwt secrets at rest: the Secrets Manager secret
   * (IDM_AT_REST_KEY_SECRET, name or ARN) in AWS; otherwise the file `atRestKeyFile`, made on first use.
   */
  readonly atRestKeySecret: string | undefined;
  /** Default DATA_DIR/at-rest-key (mode 0600). */
  readonly atRestKeyFile: string;
  /**
   * New portal accounts must follow the link mailed to them before they can sign in
   * (IDM_REQUIRE_EMAIL_VERIFICATION; off unless "true": local trials; the CDK stack turns it on).
   */
  readonly requireEmailVerification: boolean;
  /** Sender of the service's mail (IDM_MAIL_FROM). */
  readonly mailFrom: string;
  /** Local runs: the SMTP server mail goes to (IDM_SMTP_URL); unset in AWS, where SES sends. */
  readonly smtpUrl: string | undefined;
  /** The SES configuration set mail is sent with (IDM_SES_CONFIGURATION_SET), if any. */
  readonly sesConfigurationSet: string | undefined;
}

function int(env: NodeJS.ProcessEnv, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new Error(`Configuration error: ${name} must be an integer from ${min} to ${max}, got "${raw}".`);
  }
  return value;
}

export function readConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const tableName = env.IDM_TABLE_NAME ?? env.TABLE_NAME;
  if (!tableName) {
    throw new Error('Configuration error: IDM_TABLE_NAME is not set (the DynamoDB table to use).');
  }
  const publicUrl = (env.IDM_PUBLIC_URL ?? '').replace(/\/+$/, '');
  return Object.freeze({
    tableName,
    logoBucket: env.IDM_LOGO_BUCKET ?? 'gatehouse-logos',
    region: env.AWS_REGION ?? env.AWS_DEFAULT_REGION ?? 'us-east-1',
    dynamodbEndpoint: env.IDM_DYNAMODB_ENDPOINT || undefined,
    s3Endpoint: env.IDM_S3_ENDPOINT || undefined,
    publicUrl,
    documentationUrl:
      env.IDM_DOCUMENTATION_URL ?? 'https://github.com/gatehouse-idm/gatehouse/blob/main/docs/api.md',
    bcryptCost: int(env, 'IDM_BCRYPT_COST', 10, 4, 15),
    accessTokenTtl: int(env, 'IDM_ACCESS_TOKEN_TTL', 3600, 60, 86_400),
    refreshTokenTtl: int(env, 'IDM_REFRESH_TOKEN_TTL', 14 * 86_400, 300, 365 * 86_400),
    authorizationCodeTtl: int(env, 'IDM_AUTHORIZATION_CODE_TTL', 300, 10, 600),
    sessionIdleTtl: int(env, 'IDM_SESSION_IDLE_TTL', 3600, 60, 30 * 86_400),
    // Keyrock's config.api.token_lifetime defaults to one hour as well.
    apiTokenTtl: int(env, 'IDM_API_TOKEN_TTL', 3600, 60, 86_400),
    secureCookies: env.IDM_INSECURE_COOKIES !== 'true',
    keyrockEncryptionKey: env.IDM_ENCRYPTION_KEY || 'nodejs_idm',
    signingKeysSecret: env.IDM_SIGNING_KEYS_SECRET || undefined,
    signingKeysFile: env.IDM_SIGNING_KEYS_FILE || join(resolve(env.DATA_DIR ?? '.data'), 'signing-keys.json'),
    atRestKeySecret: env.IDM_AT_REST_KEY_SECRET || undefined,
    atRestKeyFile: env.IDM_AT_REST_KEY_FILE || join(resolve(env.DATA_DIR ?? '.data'), 'at-rest-key'),
    requireEmailVerification: env.IDM_REQUIRE_EMAIL_VERIFICATION === 'true',
    mailFrom: env.IDM_MAIL_FROM || 'Gatehouse <no-reply@gatehouse.localhost>',
    smtpUrl: env.IDM_SMTP_URL || undefined,
    sesConfigurationSet: env.IDM_SES_CONFIGURATION_SET || undefined,
  });
}

let cached: Config | undefined;

/** The process-wide configuration, read on first use (a Lambda cold start). */
export function config(): Config {
  cached ??= readConfig();
  return cached;
}
