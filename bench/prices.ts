/**
 * Published AWS on-demand prices the cost table (bench/cost.ts) uses, US East (N. Virginia), in
 * US dollars: one object per price, with the page it belongs to and the date it was last
 * confirmed. AWS's pricing pages fill their tables in the browser, so the stored copies of
 * several pages carry the text around the figures but not the figures: `checked` then says
 * where the figure was confirmed instead. Prices change: update the value, its date and its
 * check together, and re-run `npm run bench`.
 *
 * Not carried: S3 (no measured request reads or writes an object; logos are not measured).
 */
export interface Price {
  value: number;
  /** What `value` dollars buy. */
  unit: string;
  /** When the figure was last confirmed (the date the stored copy or the confirming page shows). */
  date: string;
  /** AWS's public pricing page for the figure. */
  source: string;
  /** How the figure was confirmed, when the stored copy of `source` does not show it. */
  checked?: string;
}

export const REGION = 'us-east-1';

const LAMBDA = 'https://aws.amazon.com/lambda/pricing/';
const LAMBDA_CHECK =
  'stored copy of the AWS page (web.archive.org, 2026-06-18) has the text, not the rate table; figures as listed for us-east-1 by cloudchipr.com/blog/aws-lambda-pricing (2024) and artillery 2.0.28 lib/platform/aws-lambda/prices.js';

export const PRICES = {
  lambdaRequests: {
    value: 0.2,
    unit: 'million requests',
    date: '2026-06-18',
    source: LAMBDA,
    checked: LAMBDA_CHECK,
  },
  /** Arm64 (Graviton), first 7.5 billion GB-seconds a month. */
  lambdaArm64Duration: {
    value: 0.0000133334,
    unit: 'GB-second',
    date: '2026-06-18',
    source: LAMBDA,
    checked: LAMBDA_CHECK,
  },
  /** x86_64 (the logo function, for sharp), first 6 billion GB-seconds a month. */
  lambdaX86Duration: {
    value: 0.0000166667,
    unit: 'GB-second',
    date: '2026-06-18',
    source: LAMBDA,
    checked: LAMBDA_CHECK,
  },
  /** HTTP APIs, first 300 million requests a month; each 512 KB of a request is metered as one. */
  apiGatewayHttpRequests: {
    value: 1.0,
    unit: 'million requests',
    date: '2025-05-19',
    source: 'https://aws.amazon.com/api-gateway/pricing/',
    checked:
      'stored copy of the AWS page shows the free tier only; $1.00 per million (first 300 million) and the 512 KB metering in AWS\u2019s whitepaper docs.aws.amazon.com/whitepapers/latest/best-practices-api-gateway-private-apis-integration/cost-optimization.html, and awsforengineers.com (2025-05-19)',
  },
  /** On-demand, after the 50% cut of 2024-11-01 (from $1.25 and $0.25). */
  dynamodbWriteUnits: {
    value: 0.625,
    unit: 'million write request units',
    date: '2025-07-21',
    source: 'https://aws.amazon.com/dynamodb/pricing/on-demand/',
    checked:
      'no stored copy of the AWS page found; airbyte.com/data-engineering-resources/dynamodb-pricing (2025-07-21)',
  },
  dynamodbReadUnits: {
    value: 0.125,
    unit: 'million read request units',
    date: '2025-07-21',
    source: 'https://aws.amazon.com/dynamodb/pricing/on-demand/',
    checked:
      'no stored copy of the AWS page found; airbyte.com/data-engineering-resources/dynamodb-pricing (2025-07-21)',
  },
  /**
   * Every API request passes through the CloudFront distribution (infra/cdn.ts routes the API
   * paths to the HTTP API), which bills each HTTPS request and the bytes it sends back.
   * $0.0100 per 10,000 HTTPS requests, United States, Mexico and Canada.
   */
  cloudfrontHttpsRequests: {
    value: 1.0,
    unit: 'million HTTPS requests',
    date: '2026-06-13',
    source: 'https://aws.amazon.com/cloudfront/pricing/',
    checked:
      'stored copy of the AWS page shows the data-transfer table, not the request one; factualminds.com/blog/amazon-cloudfront-pricing-regional-tiers-requests-security (2026-06-13): $0.0100 per 10,000 HTTPS requests',
  },
  /** Data transfer out to the internet, United States, Mexico and Canada, first 10 TB a month. */
  cloudfrontDataOut: {
    value: 0.085,
    unit: 'GB',
    date: '2026-06-13',
    source: 'https://aws.amazon.com/cloudfront/pricing/',
    checked:
      'the stored copy of the AWS page (undated) lists $0.085 per GB for the first 10 TB; factualminds.com (2026-06-13) the same',
  },
  /**
   * The managed alternative for the client-credentials grant, for comparison: the first tier's
   * rate ($2.25 per 1,000 token requests; graduated tiers lower it at volume).
   */
  cognitoM2MTokenRequests: {
    value: 0.00225,
    unit: 'token request',
    date: '2025-04-27',
    source: 'https://aws.amazon.com/cognito/pricing/',
    checked:
      'stored copies of the AWS page (de, jp) say only that M2M has no free tier; cur.vantage-api.com CUPM2MTokenRequestsFull (2025-04-27): "$2.250 per 1000 token requests" with graduated tiers; dev.classmethod.jp (2024-05-13) gives the same figures',
  },
  cognitoM2MAppClients: {
    value: 6.0,
    unit: 'app client-month',
    date: '2025-05',
    source: 'https://aws.amazon.com/cognito/pricing/',
    checked:
      'rhythmictech.com "The AWS Cognito M2M Bill Has Come Due" (May 2025); dev.classmethod.jp (2024-05-13)',
  },
} as const satisfies Record<string, Price>;

/** Facts of the billing model, with where they are stated. */
export const BILLING = {
  /** Duration is billed in 1 ms increments (AWS Lambda pricing page). */
  lambdaGranularityMs: 1,
  /**
   * Since 2025-08-01 the INIT phase of on-demand ZIP functions on managed runtimes is billed as
   * duration too (aws.amazon.com/blogs/compute/aws-lambda-standardizes-billing-for-init-phase,
   * 2025-04-29), so cold starts cost money, not only latency.
   */
  lambdaInitBilledSince: '2025-08-01',
  /** One vCPU at 1,769 MB (docs.aws.amazon.com/lambda/latest/dg/configuration-memory.html). */
  lambdaMbPerVcpu: 1769,
} as const;

/**
 * Assumptions the cost model needs that no local measurement gives (stated in the report):
 * an in-region DynamoDB round trip from Lambda, the share of requests that meet a cold start,
 * and the response headers CloudFront sends on top of the measured body.
 */
export const ASSUMPTIONS = {
  dynamodbRoundTripMs: 5,
  coldStartShare: 0.01,
  defaultMemoryMb: 256,
  responseHeaderBytes: 700,
} as const;
