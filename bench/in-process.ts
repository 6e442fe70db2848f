/**
 * Sections 2, 5 and 3 of `npm run bench`, in one child process (the handlers read their
 * configuration once per process, as in Lambda): handlers invoked in-process against DynamoDB
 * Local with the work counter on (2), the same with 100 and 100,000 users in the table (5), then
 * against a canned store answering from a snapshot of the same data (3).
 * Environment: the handlers' IDM_* variables, BENCH_OUT (JSON result file), BENCH_QUICK=1 for
 * small iteration counts. Progress goes to stderr; stdout carries the handlers' log lines.
 */
import { writeFileSync } from 'node:fs';
import bcrypt from 'bcryptjs';
import { db as processDb } from '../shared/store/db.js';
import { keys } from '../shared/store/keys.js';
import { countDynamoDb, type DynamoDbWork } from '../shared/store/metrics.js';
import { failChild } from './answers.js';
import { freshCode, freshRefreshToken, loadOrgAuthorizations, loadUsers, prepare } from './fixtures.js';
import {
  bcryptCost,
  type CodeCostFigure,
  checked,
  codeCost,
  measureWork,
  type SignatureFigure,
  signatureCost,
  snapshot,
} from './measure.js';
import { SCENARIOS, type ScenarioContext, user50Scenario } from './scenarios.js';
import { median } from './stats.js';

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

export interface InProcessResult {
  work: WorkFigure[];
  growth: GrowthFigure[];
  codeCost: CodeCostFigure[];
  bcrypt: { cost: number; compareMs: number };
  /** One RS256 and one ES256 signature and verification (bench/measure.ts signatureCost). */
  signatures: SignatureFigure[];
  usersInTable: { small: number; large: number };
  /** Measured answers checked against their scenario's status (and shape; bench/measure.ts). */
  answersChecked: number;
}

const same = (a: DynamoDbWork, b: DynamoDbWork) =>
  a.calls === b.calls &&
  a.roundTrips === b.roundTrips &&
  a.readUnits === b.readUnits &&
  a.writeUnits === b.writeUnits;

async function section2(ctx: ScenarioContext, counter: ReturnType<typeof countDynamoDb>) {
  const out: WorkFigure[] = [];
  for (const s of SCENARIOS) {
    const where = 'DynamoDB work (DynamoDB Local)';
    await measureWork(where, ctx, s, counter, 2); // warm: module import, SDK lazy init, connections
    const { works, ms, status, bytes } = await measureWork(where, ctx, s, counter, quick ? 3 : 7);
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
    const where = `growth (${setting})`;
    await measureWork(where, ctx, s, counter, 3);
    const runs = quick ? 5 : s.id === 'token-password' ? 15 : 40;
    const { works, ms, bytes } = await measureWork(where, ctx, s, counter, runs);
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
  await db.doc.update({
    TableName: db.table,
    Key: keys.stats(),
    UpdateExpression: 'ADD #u :n',
    ExpressionAttributeNames: { '#u': 'users' },
    ExpressionAttributeValues: { ':n': count },
  });
  log(`loaded ${count} users in ${((performance.now() - started) / 1000).toFixed(1)} s`);
}

async function main(): Promise<void> {
  const db = processDb();
  const counter = countDynamoDb(db.doc);
  log('preparing data through the repositories and the token endpoint');
  const f = await prepare(db, { with50Orgs: true });
  const reusable = { code: await freshCode(db, f), refreshToken: await freshRefreshToken(db, f) };
  const items = await snapshot(db);
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

  const costs = await codeCost({ ...ctx, fresh: false }, items, SCENARIOS, {
    budgetMs: (s) => (quick ? 300 : s.id === 'token-password' ? 3000 : 1500),
    warmups: quick ? 5 : 30,
    log,
  });
  const result: InProcessResult = {
    work,
    growth,
    codeCost: costs,
    bcrypt: bcryptCost(f.bcryptCost, quick ? 3 : 9),
    signatures: await signatureCost(quick ? 20 : 300),
    usersInTable: { small, large },
    answersChecked: checked.answers,
  };
  writeFileSync(process.env.BENCH_OUT ?? 'bench-in-process.json', JSON.stringify(result, null, 2));
}

main().then(
  () => process.exit(0),
  (error: unknown) => failChild(error, process.env.BENCH_OUT),
);
