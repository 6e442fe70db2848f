/**
 * Section 6 of docs/benchmarks.md: cost per million requests, and the prices it used, each with
 * its page and date (bench/prices.ts), so a reader can check every figure against its source.
 */
import type { CostResult } from './cost.js';
import type { InProcessResult } from './in-process.js';
import { table } from './markdown.js';
import { ASSUMPTIONS, BILLING, PRICES, REGION } from './prices.js';
import { fmt, usd } from './stats.js';

/** The prices as a table: value, unit, date confirmed, page, and how it was confirmed. */
function priceTable(): string {
  const names: Record<keyof typeof PRICES, string> = {
    lambdaRequests: 'Lambda requests',
    lambdaArm64Duration: 'Lambda duration, arm64',
    lambdaX86Duration: 'Lambda duration, x86_64',
    apiGatewayHttpRequests: 'API Gateway HTTP API requests',
    dynamodbWriteUnits: 'DynamoDB on-demand writes',
    dynamodbReadUnits: 'DynamoDB on-demand reads',
    cloudfrontHttpsRequests: 'CloudFront HTTPS requests',
    cloudfrontDataOut: 'CloudFront data out',
    cognitoM2MTokenRequests: 'Cognito M2M token requests (comparison)',
    cognitoM2MAppClients: 'Cognito M2M app clients (comparison)',
  };
  const rows = (Object.keys(PRICES) as (keyof typeof PRICES)[]).map((key) => {
    const p: { value: number; unit: string; date: string; source: string; checked?: string } = PRICES[key];
    // As published: every digit AWS gives, and at least cents.
    const digits = Math.max(2, String(p.value).split('.')[1]?.length ?? 0);
    return [names[key], `$${p.value.toFixed(digits)}`, p.unit, p.date, p.source, p.checked ?? 'the AWS page'];
  });
  return table(['Price', 'USD', 'Per', 'Confirmed', 'Page', 'Confirmed from'], rows);
}

/** What section 5's many-organizations figure does to the DynamoDB bill of GET /user. */
function appOrganizationsNote(inProcess: InProcessResult): string {
  const growth = inProcess.growth.filter((g) => g.id === 'user-orgs1');
  const base = growth.reduce((a, b) => (b.appOrganizations < a.appOrganizations ? b : a), growth[0]!);
  const most = growth.reduce((a, b) => (b.appOrganizations > a.appOrganizations ? b : a), growth[0]!);
  if (!base || !most || most.appOrganizations === base.appOrganizations) return '';
  const price = PRICES.dynamodbReadUnits.value;
  return `Section 5's application with ${most.appOrganizations.toLocaleString('en-US')} organizations holding roles moves GET /user's DynamoDB reads from ${fmt(base.work.readUnits, 1)} to ${fmt(most.work.readUnits, 1)} RCU per request, that is from ${usd(base.work.readUnits * price)} to ${usd(most.work.readUnits * price)} per million requests, for the same answer.`;
}

export function costSection(cost: CostResult, inProcess: InProcessResult): string {
  const rows = cost.rows.map((r) => [
    r.label,
    `${r.memoryMb} MB ${r.arch}`,
    fmt(r.durationMs, 1),
    `${fmt(r.readUnits, 1)} / ${fmt(r.writeUnits, 1)}`,
    usd(r.perMillion.cloudfront),
    usd(r.perMillion.apiGateway),
    usd(r.perMillion.lambdaRequests + r.perMillion.lambdaDuration),
    usd(r.perMillion.dynamodb),
    `**${usd(r.perMillion.total)}**`,
  ]);
  const cc = cost.rows.find((r) => r.id === 'token-client_credentials');
  const ccJwt = cost.rows.find((r) => r.id === 'token-client_credentials-jwt');
  const tokens = PRICES.cognitoM2MTokenRequests;
  return [
    '## 6. Cost per million requests on AWS',
    '',
    `Prices: \`bench/prices.ts\`, ${REGION}, on-demand, listed below with the page and date of each (DynamoDB after its 2024-11-01 price cut). Every API request passes through the CloudFront distribution in front of the HTTP API (\`infra/cdn.ts\`), which bills the HTTPS request and the bytes out (section 2's body + an assumed ${ASSUMPTIONS.responseHeaderBytes} bytes of headers); free tiers are left out. Estimated Lambda duration = CPU time per request from section 3 (through the full DynamoDB client; the password grant from the canned-store run, bcrypt being nearly all of it) stretched by the memory's CPU share (1 vCPU per ${BILLING.lambdaMbPerVcpu} MB) + ${ASSUMPTIONS.dynamodbRoundTripMs} ms per sequential DynamoDB round trip (an assumption for in-region latency), rounded up to the billed millisecond, plus ${ASSUMPTIONS.coldStartShare * 100}% of requests paying the measured init (INIT is billed since ${BILLING.lambdaInitBilledSince}). Memory per route from the route table (default ${cost.defaultMemoryMb} MB).`,
    '',
    table(
      [
        'Request',
        'Lambda',
        'Est. ms',
        'RCU / WCU',
        'CloudFront',
        'API Gateway',
        'Lambda',
        'DynamoDB',
        'Total per million',
      ],
      rows,
      ['---', '---', '---:', '---:', '---:', '---:', '---:', '---:', '---:'],
    ),
    '',
    cc
      ? `For comparison, Amazon Cognito's machine-to-machine tokens cost ${usd(cost.cognitoPerMillion)} per million token requests at its first tier ($${fmt(tokens.value * 1000, 2)} per 1,000; graduated tiers lower it at volume), plus $${PRICES.cognitoM2MAppClients.value} per app client a month; the same client-credentials work here costs about ${usd(cc.perMillion.total)} per million, ${fmt(cost.cognitoPerMillion / cc.perMillion.total, 0)}× less.`
      : '',
    '',
    cc && ccJwt
      ? `With JWT access tokens (RFC 9068) the client-credentials grant costs ${usd(ccJwt.perMillion.total)} per million against ${usd(cc.perMillion.total)} with opaque tokens: DynamoDB ${usd(ccJwt.perMillion.dynamodb)} instead of ${usd(cc.perMillion.dynamodb)} (one read, no write), Lambda ${usd(ccJwt.perMillion.lambdaRequests + ccJwt.perMillion.lambdaDuration)} instead of ${usd(cc.perMillion.lambdaRequests + cc.perMillion.lambdaDuration)} (the signature's CPU, and one round trip less). Behind the API alone, without the CloudFront distribution in front of it (the figure earlier reports compared before CloudFront was added), that is ${usd(ccJwt.perMillion.total - ccJwt.perMillion.cloudfront)} against ${usd(cc.perMillion.total - cc.perMillion.cloudfront)}.`
      : '',
    '',
    appOrganizationsNote(inProcess),
    '',
    priceTable(),
  ].join('\n');
}
