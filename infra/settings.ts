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
  });
}
