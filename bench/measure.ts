/**
 * The measuring loops of sections 2, 3 and 5, each checking every answer it measures
 * (bench/answers.ts): a wrong status or body shape throws WrongAnswer at once, so no figure of
 * an error path reaches the report. Section 3 runs the scenarios against the canned stores.
 */
import bcrypt from 'bcryptjs';
import { generateKeyPair, jwtVerify, SignJWT } from 'jose';
import { SIGNING_ALGS, type SigningAlg } from '../shared/model.js';
import type { Db } from '../shared/store/db.js';
import type { countDynamoDb, DynamoDbWork } from '../shared/store/metrics.js';
import type { Item } from '../shared/store/ops.js';
import { type Answer, answerOf, checkAnswer, type Expectation } from './answers.js';
import { type Fixture, PASSWORD } from './fixtures.js';
import { type BenchRequest, invoke } from './invoke.js';
import { mockFromSnapshot } from './mock-store.js';
import type { Scenario, ScenarioContext } from './scenarios.js';
import { median } from './stats.js';
import { wireFromSnapshot } from './wire-store.js';

export interface CodeCostFigure {
  id: string;
  label: string;
  status: number;
  requests: number;
  seconds: number;
  /** Requests per second of wall-clock time (moves with the neighbours' load on a shared machine). */
  wallRps: number;
  /** CPU time (user + system) per request: what one core spends, steady under shared load. */
  usPerRequest: number;
  /** 1 s of one core divided by the CPU time per request. */
  rps: number;
  /** The same with the whole DynamoDB client running against canned HTTP answers (bench/wire-store.ts). */
  sdk?: { usPerRequest: number; rps: number; status: number };
}

/** What a scenario must answer about this fixture. */
export const expectationOf = (s: Scenario, f: Fixture): Expectation => ({
  status: s.expectStatus,
  ...(s.shape ? { shape: s.shape(f) } : {}),
});

/** How many measured answers this process has checked (reported, so the count is visible). */
export const checked = { answers: 0 };

/** Every item of the table (bench setup only: no request path scans). */
export async function snapshot(db: Db): Promise<Item[]> {
  const items: Item[] = [];
  let start: Record<string, unknown> | undefined;
  do {
    const out = await db.doc.scan({ TableName: db.table, ExclusiveStartKey: start });
    items.push(...((out.Items ?? []) as Item[]));
    start = out.LastEvaluatedKey;
  } while (start);
  return items;
}

/** Runs one scenario `runs` times against the live table, counting its DynamoDB work. */
export async function measureWork(
  where: string,
  ctx: ScenarioContext,
  s: Scenario,
  counter: ReturnType<typeof countDynamoDb>,
  runs: number,
): Promise<{ works: DynamoDbWork[]; ms: number[]; status: number; bytes: number }> {
  const expectation = expectationOf(s, ctx.f);
  const works: DynamoDbWork[] = [];
  const ms: number[] = [];
  let last: Answer | undefined;
  for (let i = 0; i < runs; i++) {
    const request = await s.request(ctx);
    counter.reset();
    const started = performance.now();
    const res = await invoke(request);
    ms.push(performance.now() - started);
    works.push(counter.read());
    last = answerOf(res);
    checkAnswer(where, s.label, request, expectation, last);
    checked.answers++;
  }
  return { works, ms, status: last?.status ?? 0, bytes: Buffer.byteLength(last?.body ?? '') };
}

/**
 * CPU time per request of one request repeated for about `budgetMs` after a warm-up, in three
 * windows: the median window is kept, so one garbage-collector pause does not decide the figure.
 * Every warm-up answer is checked in full; inside the timed windows every status is compared
 * (an integer comparison, nothing to measure) and each window's last answer is checked in full
 * once its CPU time is read.
 */
export async function cpuPerRequest(
  check: (answer: Answer) => void,
  expectation: Expectation,
  request: BenchRequest,
  budgetMs: number,
  warmups: number,
) {
  for (let i = 0; i < warmups; i++) check(answerOf(await invoke(request)));
  checked.answers += warmups;
  const windows: { requests: number; seconds: number; usPerRequest: number }[] = [];
  for (let w = 0; w < 3; w++) {
    let requests = 0;
    let last = await invoke(request);
    check(answerOf(last));
    checked.answers++;
    const cpu = process.cpuUsage();
    const started = performance.now();
    while (performance.now() - started < budgetMs / 3) {
      last = await invoke(request);
      requests++;
      if (last.statusCode !== expectation.status) break;
    }
    checked.answers += requests;
    const used = process.cpuUsage(cpu);
    check(answerOf(last));
    windows.push({
      requests,
      seconds: (performance.now() - started) / 1000,
      usPerRequest: (used.user + used.system) / requests,
    });
  }
  windows.sort((a, b) => a.usPerRequest - b.usPerRequest);
  return { status: expectation.status, ...windows[1]! };
}

export interface CodeCostOptions {
  /** Milliseconds of timed requests per scenario (split into three windows). */
  budgetMs(s: Scenario): number;
  warmups: number;
  log(line: string): void;
}

/**
 * Section 3: every scenario against the canned store answering from the snapshot, then (all
 * but the password grant, bcrypt-bound) through the full DynamoDB client against canned HTTP answers.
 */
export async function codeCost(
  ctx: ScenarioContext,
  items: Item[],
  scenarios: Scenario[],
  options: CodeCostOptions,
): Promise<CodeCostFigure[]> {
  const out: CodeCostFigure[] = [];
  const run = async (where: string, s: Scenario) => {
    const request = await s.request(ctx);
    const expectation = expectationOf(s, ctx.f);
    const check = (answer: Answer) => checkAnswer(where, s.label, request, expectation, answer);
    return cpuPerRequest(check, expectation, request, options.budgetMs(s), options.warmups);
  };
  const mock = mockFromSnapshot(items, ctx.db);
  try {
    // Sequential requests on one event loop: what one Lambda instance's CPU does per request.
    for (const s of scenarios) {
      const r = await run('code cost, canned store', s);
      out.push({
        id: s.id,
        label: s.label,
        status: r.status,
        requests: r.requests,
        seconds: r.seconds,
        wallRps: r.requests / r.seconds,
        usPerRequest: r.usPerRequest,
        rps: 1e6 / r.usPerRequest,
      });
      options.log(`code cost ${s.id}: ${r.usPerRequest.toFixed(0)} µs CPU per request (canned store)`);
    }
  } finally {
    mock.restore();
  }
  const wire = wireFromSnapshot(items, ctx.db);
  try {
    for (const s of scenarios) {
      if (s.id === 'token-password') continue; // bcrypt dominates; reported with the mock only
      const r = await run('code cost, full client (wire store)', s);
      const figure = out.find((f) => f.id === s.id)!;
      figure.sdk = { usPerRequest: r.usPerRequest, rps: 1e6 / r.usPerRequest, status: r.status };
      options.log(`code cost ${s.id}: ${r.usPerRequest.toFixed(0)} µs CPU per request (full client)`);
    }
  } finally {
    wire.restore();
  }
  return out;
}

/** CPU time of one bcrypt comparison at `cost`, the median of `runs` (the password grant's floor). */
export function bcryptCost(cost: number, runs: number): { cost: number; compareMs: number } {
  const hash = bcrypt.hashSync(PASSWORD, cost);
  const ms: number[] = [];
  for (let i = 0; i < runs; i++) {
    const cpu = process.cpuUsage();
    bcrypt.compareSync(PASSWORD, hash);
    const used = process.cpuUsage(cpu);
    ms.push((used.user + used.system) / 1000);
  }
  return { cost, compareMs: median(ms) };
}

/** CPU time of one JWT signature and one verification with an algorithm Gatehouse signs with. */
export interface SignatureFigure {
  alg: SigningAlg;
  signUs: number;
  verifyUs: number;
  /** Bytes of the signed token (a client-credentials access token's claims). */
  tokenBytes: number;
}

/**
 * One RS256 and one ES256 signature and verification of a client-credentials JWT access token's
 * claims (RFC 9068), with jose on a key made for the run, as shared/oidc/id-token.ts signs: the
 * median of three windows of `runs` operations, in CPU time (process.cpuUsage).
 */
export async function signatureCost(runs: number): Promise<SignatureFigure[]> {
  const now = Math.floor(Date.now() / 1000);
  const claims = {
    iss: 'https://idm.example.com',
    sub: '8d2b6f0e-4c1a-4b55-9d3e-2f1c0a9b8e77',
    aud: '8d2b6f0e-4c1a-4b55-9d3e-2f1c0a9b8e77',
    client_id: '8d2b6f0e-4c1a-4b55-9d3e-2f1c0a9b8e77',
    app_id: 1,
    jti: '1b4e28ba-2fa1-11d2-883f-0016d3cca427',
    iat: now,
    exp: now + 3600,
  };
  const window = async (op: () => Promise<unknown>) => {
    const cpu = process.cpuUsage();
    for (let i = 0; i < runs; i++) await op();
    const used = process.cpuUsage(cpu);
    return (used.user + used.system) / runs;
  };
  const median3 = async (op: () => Promise<unknown>) => {
    for (let i = 0; i < Math.min(runs, 20); i++) await op(); // warm-up
    return median([await window(op), await window(op), await window(op)]);
  };
  const out: SignatureFigure[] = [];
  for (const alg of SIGNING_ALGS) {
    const { privateKey, publicKey } = await generateKeyPair(alg);
    const sign = () =>
      new SignJWT(claims).setProtectedHeader({ alg, kid: 'bench', typ: 'at+jwt' }).sign(privateKey);
    const token = await sign();
    const signUs = await median3(sign);
    const verifyUs = await median3(() => jwtVerify(token, publicKey, { algorithms: [alg] }));
    out.push({ alg, signUs, verifyUs, tokenBytes: Buffer.byteLength(token) });
  }
  return out;
}
