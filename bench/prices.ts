/**
 * Published AWS on-demand prices the cost table uses, US East (N. Virginia), in US dollars, with
 * the date they were read from the AWS pricing pages. Prices change: update the figure AND its
 * date together, and re-run `npm run bench`.
 */
export const PRICES = {
  /** The date the figures below were checked against the public pricing pages. */
  asOf: '2025-10-01',
  region: 'us-east-1',
  apiGatewayHttpApi: {
    /** Per million requests, first 300 million a month (each 512 KB of a request is metered as one). */
    perMillionRequests: 1.0,
    source: 'https://aws.amazon.com/api-gateway/pricing/',
  },
  lambda: {
    /** Arm64 (Graviton), per GB-second, first 7.5 billion GB-seconds a month. */
    arm64PerGbSecond: 0.0000133334,
    /** x86_64 (the logo function, for sharp), per GB-second. */
    x86PerGbSecond: 0.0000166667,
    perMillionRequests: 0.2,
    /** Duration is billed in 1 ms increments. */
    billingGranularityMs: 1,
    /**
     * Since 2025-08-01 the INIT phase of on-demand ZIP functions on managed runtimes is billed as
     * duration too, so cold starts cost money, not only latency.
     */
    initBilledSince: '2025-08-01',
    /** One vCPU's worth of CPU comes with 1,769 MB; less memory gets a proportional share. */
    mbPerVcpu: 1769,
    source: 'https://aws.amazon.com/lambda/pricing/',
  },
  dynamodbOnDemand: {
    /**
     * Per million write / read request units. AWS cut on-demand throughput prices by 50% on
     * 2024-11-01 (from $1.25 and $0.25); these are the prices after the cut.
     */
    perMillionWriteUnits: 0.625,
    perMillionReadUnits: 0.125,
    beforeNovember2024: { perMillionWriteUnits: 1.25, perMillionReadUnits: 0.25 },
    source: 'https://aws.amazon.com/dynamodb/pricing/on-demand/',
  },
  /** The managed alternative for the client-credentials grant, for comparison. */
  cognitoM2M: {
    /** Per token request issued to a machine-to-machine app client (client credentials). */
    perTokenRequest: 0.00225,
    /** Plus, per M2M app client per month. */
    perAppClientMonth: 6.0,
    source: 'https://aws.amazon.com/cognito/pricing/',
  },
} as const;

/**
 * Assumptions the cost model needs that no local measurement gives (stated in the report):
 * an in-region DynamoDB round trip from Lambda, and the share of requests that meet a cold start.
 */
export const ASSUMPTIONS = {
  dynamodbRoundTripMs: 5,
  coldStartShare: 0.01,
  defaultMemoryMb: 256,
} as const;
