import { Stack } from 'aws-cdk-lib';
import { CfnWebACL } from 'aws-cdk-lib/aws-wafv2';
import type { IConstruct } from 'constructs';

/**
 * A WAF web ACL with one rate-based rule per client IP, for CloudFront (context `wafRateLimit`).
 * CloudFront-scoped ACLs exist only in us-east-1, which is why it is opt-in. Created in the
 * stack's scope so its logical ID stays that of the deployed stack.
 */
export function rateLimitAcl(scope: IConstruct, limit: number): CfnWebACL {
  return new CfnWebACL(Stack.of(scope), 'RateLimit', {
    scope: 'CLOUDFRONT',
    defaultAction: { allow: {} },
    visibilityConfig: {
      cloudWatchMetricsEnabled: true,
      metricName: 'gatehouse',
      sampledRequestsEnabled: true,
    },
    rules: [
      {
        name: 'rate-per-ip',
        priority: 0,
        action: { block: {} },
        statement: { rateBasedStatement: { limit, aggregateKeyType: 'IP' } },
        visibilityConfig: {
          cloudWatchMetricsEnabled: true,
          metricName: 'gatehouse-rate-per-ip',
          sampledRequestsEnabled: true,
        },
      },
    ],
  });
}
