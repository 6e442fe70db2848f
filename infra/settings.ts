import type { Node } from 'constructs';

/**
 * Deployment settings, read once from CDK context (`cdk.json`, `--context key=value` or the
 * test's App context) into a typed, validated object. A malformed value fails the synthesis with
 * a sentence naming the key instead of producing a template that fails at deploy time.
 */
export interface DeploySettings {
  /** `retain` (default) keeps the table, the logo bucket and the logs on `cdk destroy`. */
  readonly removal: 'retain' | 'destroy';
  /** HTTP API stage throttling: steady-state requests per second and burst. */
  readonly throttleRate: number;
  readonly throttleBurst: number;
  /** Days CloudWatch keeps function and access logs. */
  readonly logRetentionDays: number;
  /** Optional custom domain for CloudFront; needs an ACM certificate in us-east-1. */
  readonly domainName: string | undefined;
  readonly certificateArn: string | undefined;
  /** Optional AWS WAF rate-based rule: requests per 5 minutes per client IP (needs us-east-1). */
  readonly wafRateLimit: number | undefined;
  /**
   * Mail (SES): the sender address (`mailFrom`), the SES identity it belongs to (`mailIdentity`,
   * default: the address's domain) and an optional configuration set. Without `mailFrom` no
   * function may send mail (no grant), so verification and reset links cannot go out.
   */
  readonly mail: MailSettings | undefined;
  /** New portal accounts must follow the emailed link before signing in (default on). */
  readonly requireEmailVerification: boolean;
}

export interface MailSettings {
  readonly from: string;
  readonly identity: string;
  readonly configurationSet: string | undefined;
}

/** Retention periods CloudWatch Logs accepts (the RetentionDays enum). */
const RETENTION_DAYS = [1, 3, 5, 7, 14, 30, 60, 90, 120, 150, 180, 365, 400, 545, 731, 1096, 1827, 3653];

function text(node: Node, key: string): string | undefined {
  const raw: unknown = node.tryGetContext(key);
  if (raw === undefined || raw === null || raw === '') return undefined;
  if (typeof raw !== 'string' && typeof raw !== 'number' && typeof raw !== 'boolean') {
    throw new Error(`Context error: ${key} must be a string or number.`);
  }
  return String(raw).trim();
}

function int(node: Node, key: string, fallback: number | undefined, min: number, max: number) {
  const raw = text(node, key);
  if (raw === undefined) return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new Error(`Context error: ${key} must be an integer from ${min} to ${max}, got "${raw}".`);
  }
  return value;
}

function mailSettings(node: Node): MailSettings | undefined {
  const from = text(node, 'mailFrom');
  const identity = text(node, 'mailIdentity');
  const configurationSet = text(node, 'sesConfigurationSet');
  if (from === undefined) {
    if (identity !== undefined || configurationSet !== undefined) {
      throw new Error(
        'Context error: mailIdentity and sesConfigurationSet need mailFrom (the sender address).',
      );
    }
    return undefined;
  }
  if (!/^[^\s@<>"]+@[a-z0-9]([a-z0-9.-]*[a-z0-9])?\.[a-z]{2,63}$/i.test(from)) {
    throw new Error(`Context error: mailFrom must be a plain email address, got "${from}".`);
  }
  if (configurationSet !== undefined && !/^[A-Za-z0-9_-]{1,64}$/.test(configurationSet)) {
    throw new Error(
      `Context error: sesConfigurationSet "${configurationSet}" is not an SES configuration set name.`,
    );
  }
  return { from, identity: identity ?? from.split('@')[1]!.toLowerCase(), configurationSet };
}

function flag(node: Node, key: string, fallback: boolean): boolean {
  const raw = text(node, key);
  if (raw === undefined) return fallback;
  if (raw !== 'true' && raw !== 'false')
    throw new Error(`Context error: ${key} must be true or false, got "${raw}".`);
  return raw === 'true';
}

export function readSettings(node: Node): DeploySettings {
  const removal = text(node, 'removalPolicy') ?? 'retain';
  if (removal !== 'retain' && removal !== 'destroy') {
    throw new Error(`Context error: removalPolicy must be "retain" or "destroy", got "${removal}".`);
  }
  const logRetentionDays = int(node, 'logRetentionDays', 30, 1, 3653)!;
  if (!RETENTION_DAYS.includes(logRetentionDays)) {
    throw new Error(`Context error: logRetentionDays must be one of ${RETENTION_DAYS.join(', ')}.`);
  }
  const domainName = text(node, 'domainName');
  const certificateArn = text(node, 'certificateArn');
  if ((domainName === undefined) !== (certificateArn === undefined)) {
    throw new Error('Context error: domainName and certificateArn go together (CloudFront needs both).');
  }
  if (
    domainName !== undefined &&
    !/^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/.test(domainName)
  ) {
    throw new Error(`Context error: domainName "${domainName}" is not a lower-case DNS name.`);
  }
  if (
    certificateArn !== undefined &&
    !/^arn:aws[a-z-]*:acm:us-east-1:\d{12}:certificate\/[\w-]+$/.test(certificateArn)
  ) {
    throw new Error(
      'Context error: certificateArn must be an ACM certificate ARN in us-east-1 (CloudFront).',
    );
  }
  return Object.freeze({
    removal,
    throttleRate: int(node, 'throttleRate', 100, 1, 100_000)!,
    throttleBurst: int(node, 'throttleBurst', 200, 1, 100_000)!,
    logRetentionDays,
    domainName,
    certificateArn,
    wafRateLimit: int(node, 'wafRateLimit', undefined, 10, 2_000_000_000),
    mail: mailSettings(node),
    requireEmailVerification: flag(node, 'requireEmailVerification', true),
  });
}
