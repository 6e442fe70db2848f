/**
 * Sections 2, 5 and 3 of `npm run bench`, in one child process (the handlers read their
 * configuration once per process, as in Lambda): handlers invoked in-process against DynamoDB
 * Local with the work counter on (2), the same with 100 and 100,000 users in the table (5), then
 * against aws-sdk-client-mock answering from a snapshot of the same data (3).
 * Environment: the handlers' IDM_* variables, BENCH_OUT (JSON result file), BENCH_QUICK=1 for
 * small iteration counts. Progress goes to stderr; stdout carries the handlers' log lines.
 */
import { writeFileSync } from 'node:fs';
import { ScanCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import bcrypt from 'bcryptjs';
import { db as processDb } from '../shared/store/db.js';
import { keys } from '../shared/store/keys.js';
import { countDynamoDb, type DynamoDbWork } from '../shared/store/metrics.js';
import type { Item } from '../shared/store/ops.js';
import {
  freshCode,
  freshRefreshToken,
  loadOrgAuthorizations,
  loadUsers,
  PASSWORD,
  prepare,
} from './fixtures.js';
import { invoke } from './invoke.js';
import { mockFromSnapshot } from './mock-store.js';
import { SCENARIOS, type Scenario, type ScenarioContext, user50Scenario } from './scenarios.js';
import { median } from './stats.js';
import { wireFromSnapshot } from './wire-store.js';

const quick = process.env.BENCH_QUICK === '1';
const log = (line: string) => process.stderr.write(`  ${line}\n`);

export interface WorkFigure {
  id: string;
  label: string;
  status: number;
  expectStatus: number;
  work: DynamoDbWork;
  /** Whether every measured run did the same work (it should: no hidden retries). */
  stable: boolean;
  maxRoundTrips?: number;
  medianMs: number;
  responseBytes: number;
}

export interface GrowthFigure {
  id: string;
  label: string;
  users: number;
  /** Organizations holding a role in the benchmark application. */
  appOrganizations: number;
  /** Column heading: the table's state when measured. */
  setting: string;
  work: DynamoDbWork;
  medianMs: number;
  p90Ms: number;
  responseBytes: number;
}

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
  /** The same with the whole SDK stack running against canned HTTP answers (bench/wire-store.ts). */
  sdk?: { usPerRequest: number; rps: number; status: number };
}

export interface InProcessResult {
  work: WorkFigure[];
  growth: GrowthFigure[];
  codeCost: CodeCostFigure[];
  bcrypt: { cost: number; compareMs: number };
  usersInTable: { small: number; large: number };
}

async function measureWork(
  ctx: ScenarioContext,
  s: Scenario,
  counter: ReturnType<typeof countDynamoDb>,
  runs: number,
): Promise<{ works: DynamoDbWork[]; ms: number[]; status: number; bytes: number }> {
  const works: DynamoDbWork[] = [];
  const ms: number[] = [];
  let status = 0;
  let bytes = 0;
  for (let i = 0; i < runs; i++) {
    const request = await s.request(ctx);
    counter.reset();
    const started = performance.now();
    const res = await invoke(request);
    ms.push(performance.now() - started);
    works.push(counter.read());
    status = res.statusCode;
    bytes = Buffer.byteLength(res.body ?? '');
    if (status !== s.expectStatus) log(`${s.id}: status ${status} ${res.body?.slice(0, 200) ?? ''}`);
  }
  return { works, ms, status, bytes };
}

const same = (a: DynamoDbWork, b: DynamoDbWork) =>
  a.calls === b.calls &&
  a.roundTrips === b.roundTrips &&
  a.readUnits === b.readUnits &&
  a.writeUnits === b.writeUnits;

async function section2(ctx: ScenarioContext, counter: ReturnType<typeof countDynamoDb>) {
  const out: WorkFigure[] = [];
  for (const s of SCENARIOS) {
    await measureWork(ctx, s, counter, 2); // warm: module import, SDK lazy init, connections
    const { works, ms, status, bytes } = await measureWork(ctx, s, counter, quick ? 3 : 7);
    const last = works.at(-1)!;
    out.push({
      id: s.id,
      label: s.label,
      status,
      expectStatus: s.expectStatus,
      work: last,
      stable: works.every((w) => same(w, last)),
      ...(s.maxRoundTrips ? { maxRoundTrips: s.maxRoundTrips } : {}),
      medianMs: median(ms),
      responseBytes: bytes,
    });
    log(`work ${s.id}: ${last.calls} calls, ${last.roundTrips} round trips, status ${status}`);
  }
  return out;
}

const GROWTH_IDS = ['token-password', 'token-client_credentials', 'user-orgs1', 'user-orgs50'];

async function growthAt(
  ctx: ScenarioContext,
  counter: ReturnType<typeof countDynamoDb>,
  users: number,
  appOrganizations: number,
): Promise<GrowthFigure[]> {
  const setting = `${users.toLocaleString('en-US')} users, ${appOrganizations.toLocaleString('en-US')} organizations in the app`;
  const list = [...SCENARIOS, user50Scenario].filter((s) => GROWTH_IDS.includes(s.id));
  const out: GrowthFigure[] = [];
  for (const s of list) {
    await measureWork(ctx, s, counter, 3);
    const runs = quick ? 5 : s.id === 'token-password' ? 15 : 40;
    const { works, ms, bytes } = await measureWork(ctx, s, counter, runs);
    const sorted = [...ms].sort((a, b) => a - b);
    out.push({
      id: s.id,
      label: s.label,
      users,
      appOrganizations,
      setting,
      work: works.at(-1)!,
      medianMs: median(ms),
      p90Ms: sorted[Math.floor(sorted.length * 0.9)] ?? Number.NaN,
      responseBytes: bytes,
    });
  }
  return out;
}

async function countUsers(): Promise<number> {
  const db = processDb();
  const { totals } = await import('../shared/store/stats.js');
  return (await totals(db)).users;
}

async function addUsers(count: number, hash: string): Promise<void> {
  const db = processDb();
  const started = performance.now();
  await loadUsers(db, count, hash);
  // Keep the SCIM total true to the table, as createUser's transaction would.
  await db.doc.send(
    new UpdateCommand({
      TableName: db.table,
      Key: keys.stats(),
      UpdateExpression: 'ADD #u :n',
      ExpressionAttributeNames: { '#u': 'users' },
      ExpressionAttributeValues: { ':n': count },
    }),
  );
  log(`loaded ${count} users in ${((performance.now() - started) / 1000).toFixed(1)} s`);
}

async function snapshot(): Promise<Item[]> {
  // Bench setup only: a Scan copies the fixture for the mock; no request path scans.
  const db = processDb();
  const items: Item[] = [];
  let start: Record<string, unknown> | undefined;
  do {
    const out = await db.doc.send(new ScanCommand({ TableName: db.table, ExclusiveStartKey: start }));
    items.push(...((out.Items ?? []) as Item[]));
    start = out.LastEvaluatedKey;
  } while (start);
  return items;
}

/**
 * CPU time per request of one request repeated for about `budgetMs` after a warm-up, in three
 * windows: the median window is kept, so one garbage-collector pause does not decide the figure.
 */
async function cpuPerRequest(request: Parameters<typeof invoke>[0], budgetMs: number) {
  let status = 0;
  for (let i = 0; i < (quick ? 5 : 30); i++) status = (await invoke(request)).statusCode;
  const windows: { requests: number; seconds: number; usPerRequest: number }[] = [];
  for (let w = 0; w < 3; w++) {
    let requests = 0;
    const cpu = process.cpuUsage();
    const started = performance.now();
    while (performance.now() - started < budgetMs / 3) {
      await invoke(request);
      requests++;
    }
    const used = process.cpuUsage(cpu);
    windows.push({
      requests,
      seconds: (performance.now() - started) / 1000,
      usPerRequest: (used.user + used.system) / requests,
    });
  }
  windows.sort((a, b) => a.usPerRequest - b.usPerRequest);
  return { status, ...windows[1]! };
}

async function section3(ctx: ScenarioContext, items: Item[]): Promise<CodeCostFigure[]> {
  const out: CodeCostFigure[] = [];
  const budget = (s: Scenario) => (quick ? 300 : s.id === 'token-password' ? 3000 : 1500);
  const mock = mockFromSnapshot(items, processDb().table);
  try {
    // Sequential requests on one event loop: what one Lambda instance's CPU does per request.
    for (const s of SCENARIOS) {
      const r = await cpuPerRequest(await s.request(ctx), budget(s));
      if (r.status !== s.expectStatus) log(`code cost ${s.id}: status ${r.status} under the mock`);
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
      log(`code cost ${s.id}: ${r.usPerRequest.toFixed(0)} µs CPU per request (client mock)`);
    }
  } finally {
    mock.restore();
  }
  const wire = wireFromSnapshot(items, processDb());
  try {
    for (const s of SCENARIOS) {
      if (s.id === 'token-password') continue; // bcrypt dominates; reported with the mock only
      const r = await cpuPerRequest(await s.request(ctx), budget(s));
      const figure = out.find((f) => f.id === s.id)!;
      figure.sdk = { usPerRequest: r.usPerRequest, rps: 1e6 / r.usPerRequest, status: r.status };
      log(`code cost ${s.id}: ${r.usPerRequest.toFixed(0)} µs CPU per request (full SDK)`);
    }
  } finally {
    wire.restore();
  }
  return out;
}

function bcryptCost(cost: number): { cost: number; compareMs: number } {
  const hash = bcrypt.hashSync(PASSWORD, cost);
  const ms: number[] = [];
  for (let i = 0; i < (quick ? 3 : 9); i++) {
    const cpu = process.cpuUsage();
    bcrypt.compareSync(PASSWORD, hash);
    const used = process.cpuUsage(cpu);
    ms.push((used.user + used.system) / 1000);
  }
  return { cost, compareMs: median(ms) };
}

async function main(): Promise<void> {
  const db = processDb();
  const counter = countDynamoDb(db.doc);
  log('preparing data through the repositories and the token endpoint');
  const f = await prepare(db, { with50Orgs: true });
  const reusable = { code: await freshCode(db, f), refreshToken: await freshRefreshToken(db, f) };
  const items = await snapshot();
  const ctx: ScenarioContext = { db, f, fresh: true, reusable };

  const work = await section2(ctx, counter);

  // Section 5: the same requests with 100 users in the table, then 100,000.
  const hash = bcrypt.hashSync('bulk users never sign in', 4);
  const small = 100;
  const large = quick ? 5_000 : 100_000;
  await addUsers(small - (await countUsers()), hash);
  const fixtureOrgs = 1 + 20 + 50; // the orgs1, orgs20 and orgs50 users' organizations
  const growth = await growthAt(ctx, counter, await countUsers(), fixtureOrgs);
  await addUsers(large - (await countUsers()), hash);
  growth.push(...(await growthAt(ctx, counter, await countUsers(), fixtureOrgs)));
  // An application many organizations hold roles in: /user reads the application's partition.
  const appOrgs = quick ? 1_000 : 10_000;
  await loadOrgAuthorizations(db, f.appId, f.roleId, appOrgs);
  growth.push(...(await growthAt(ctx, counter, await countUsers(), fixtureOrgs + appOrgs)));
  counter.stop();

  const codeCost = await section3({ ...ctx, fresh: false }, items);
  const result: InProcessResult = {
    work,
    growth,
    codeCost,
    bcrypt: bcryptCost(f.bcryptCost),
    usersInTable: { small, large },
  };
  writeFileSync(process.env.BENCH_OUT ?? 'bench-in-process.json', JSON.stringify(result, null, 2));
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
