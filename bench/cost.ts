/**
 * Section 6, cost per million requests on AWS, computed from the measured figures: DynamoDB
 * capacity units (section 2), CPU time per request without I/O (section 3, through the full DynamoDB client
 * stack where measured), round trips (section 2, each priced at an assumed in-region latency),
 * module-initialisation time (section 1, for the share of requests that meet a cold start), each
 * route's Lambda memory, and the response size CloudFront bills (section 2's body + headers).
 */
import { type Route, routes } from '../shared/routes.js';
import type { ColdStartResult } from './cold-start.js';
import type { InProcessResult } from './in-process.js';
import { ASSUMPTIONS, BILLING, PRICES } from './prices.js';

export interface CostRow {
  id: string;
  label: string;
  fn: string;
  memoryMb: number;
  arch: 'arm64' | 'x86_64';
  cpuMsLocal: number;
  /** Estimated billed duration on Lambda, warm, in ms. */
  durationMs: number;
  readUnits: number;
  writeUnits: number;
  perMillion: {
    cloudfront: number;
    apiGateway: number;
    lambdaRequests: number;
    lambdaDuration: number;
    dynamodb: number;
    total: number;
  };
}

export interface CostResult {
  rows: CostRow[];
  defaultMemoryMb: number;
  cognitoPerMillion: number;
}

async function defaultMemory(): Promise<number> {
  try {
    // The stack's default; loading it pulls in aws-cdk-lib, so only here and with a fallback.
    const infra = (await import('../infra/route-functions.js')) as { DEFAULT_MEMORY_MB?: number };
    return infra.DEFAULT_MEMORY_MB ?? ASSUMPTIONS.defaultMemoryMb;
  } catch {
    return ASSUMPTIONS.defaultMemoryMb;
  }
}

function routeOf(label: string): Route | undefined {
  // Labels start with "METHOD /path"; {id} routes are matched by their literal prefix.
  const [method, path] = label.split(' ');
  return routes.find(
    (r) =>
      r.method === method &&
      (r.path === path || r.path.replace(/\{[^}]+\}/g, '') === path?.replace(/:\w+/g, '')),
  );
}

export async function costPerMillion(cold: ColdStartResult, inProcess: InProcessResult): Promise<CostResult> {
  const defaultMemoryMb = await defaultMemory();
  const rows: CostRow[] = [];
  for (const work of inProcess.work) {
    const code = inProcess.codeCost.find((c) => c.id === work.id);
    const route = routeOf(work.label);
    if (!code || !route) continue;
    const memoryMb = route.memory ?? defaultMemoryMb;
    const arch = route.x86 ? 'x86_64' : 'arm64';
    // Less than a full vCPU below 1,769 MB: CPU-bound time stretches in proportion.
    const cpuScale = Math.max(1, BILLING.lambdaMbPerVcpu / memoryMb);
    // The full-client figure where there is one (signing and parsing are real work in Lambda too).
    const cpuUs = code.sdk?.usPerRequest ?? code.usPerRequest;
    const cpuMs = (cpuUs / 1000) * cpuScale;
    const init = cold.functions.find((f) => f.fn === route.fn)?.initMedianMs ?? 0;
    const warmMs = cpuMs + work.work.roundTrips * ASSUMPTIONS.dynamodbRoundTripMs;
    const durationMs =
      Math.ceil(warmMs / BILLING.lambdaGranularityMs) * BILLING.lambdaGranularityMs +
      ASSUMPTIONS.coldStartShare * init * cpuScale;
    const gbSeconds = (durationMs / 1000) * (memoryMb / 1024);
    const perGbSecond = arch === 'arm64' ? PRICES.lambdaArm64Duration : PRICES.lambdaX86Duration;
    // A million responses of N bytes are N × 10^6 bytes out of CloudFront (GB of 10^9 bytes).
    const bytesOut = work.responseBytes + ASSUMPTIONS.responseHeaderBytes;
    const cloudfront =
      PRICES.cloudfrontHttpsRequests.value + (bytesOut / 1e3) * PRICES.cloudfrontDataOut.value;
    const apiGateway = PRICES.apiGatewayHttpRequests.value;
    const lambdaRequests = PRICES.lambdaRequests.value;
    const lambdaDuration = gbSeconds * perGbSecond.value * 1e6;
    const dynamodb =
      work.work.readUnits * PRICES.dynamodbReadUnits.value +
      work.work.writeUnits * PRICES.dynamodbWriteUnits.value;
    rows.push({
      id: work.id,
      label: work.label,
      fn: route.fn,
      memoryMb,
      arch,
      cpuMsLocal: cpuUs / 1000,
      durationMs,
      readUnits: work.work.readUnits,
      writeUnits: work.work.writeUnits,
      perMillion: {
        cloudfront,
        apiGateway,
        lambdaRequests,
        lambdaDuration,
        dynamodb,
        total: cloudfront + apiGateway + lambdaRequests + lambdaDuration + dynamodb,
      },
    });
  }
  return { rows, defaultMemoryMb, cognitoPerMillion: PRICES.cognitoM2MTokenRequests.value * 1e6 };
}
