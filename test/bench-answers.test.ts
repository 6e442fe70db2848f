/**
 * The benchmark stops on a wrong answer: a measured request whose status or body differs from
 * what its scenario names ends the run with a one-line reason, before the report is written.
 * The fixture is prepared on DynamoDB Local once, through the bench's own prepare(); every check
 * then runs against the canned stores, as section 3 does.
 */
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, inject, it, vi } from 'vitest';
import { WrongAnswer } from '../bench/answers.js';
import type { ColdStartResult } from '../bench/cold-start.js';
import type { Fixture } from '../bench/fixtures.js';
import { LoadCheck } from '../bench/load-check.js';
import type { Scenario, ScenarioContext } from '../bench/scenarios.js';
import type { ServerInfo } from '../bench/server.js';
import { userWithRoles } from '../bench/shapes.js';
import { localEnv } from '../local/runtime.js';
import { keys } from '../shared/store/keys.js';
import type { Item } from '../shared/store/ops.js';
import { testDb } from './support/service.js';

let ctx: ScenarioContext;
let items: Item[];
let userScenarios: Scenario[];

beforeAll(async () => {
  const table = await testDb();
  // The handlers read their configuration once per process: set it before they load.
  Object.assign(
    process.env,
    localEnv({
      table: table.table,
      logoBucket: 'unused',
      dynamodbEndpoint: inject('dynamodbEndpoint'),
      s3Endpoint: 'http://127.0.0.1:1',
    }),
    {
      IDM_BCRYPT_COST: '4',
      IDM_LOG_LEVEL: 'SILENT',
      IDM_PUBLIC_URL: 'http://localhost',
      IDM_SIGNING_KEYS_FILE: join(tmpdir(), `gatehouse-keys-${randomUUID()}.json`),
      IDM_AT_REST_KEY_FILE: join(tmpdir(), `gatehouse-at-rest-${randomUUID()}`),
    },
  );
  const { db } = await import('../shared/store/db.js');
  const { prepare, freshCode, freshRefreshToken } = await import('../bench/fixtures.js');
  const { snapshot } = await import('../bench/measure.js');
  const { SCENARIOS } = await import('../bench/scenarios.js');
  const f: Fixture = await prepare(db(), { with50Orgs: false });
  const reusable = { code: await freshCode(db(), f), refreshToken: await freshRefreshToken(db(), f) };
  ctx = { db: db(), f, fresh: false, reusable };
  items = await snapshot(db());
  userScenarios = SCENARIOS.filter((s) =>
    ['user-orgs1', 'user-decision', 'user-decision-jwt'].includes(s.id),
  );
}, 60_000);

/** The bench's own order (measure, then write) with section 3 on `snapshot` and stand-ins for the rest. */
async function benchOn(snapshot: Item[], write: (report: string) => void): Promise<void> {
  const { codeCost } = await import('../bench/measure.js');
  const { measureThenWrite } = await import('../bench/pipeline.js');
  const reference = {
    fn: 'reference',
    routes: [],
    rawBytes: 1,
    gzipBytes: 1,
    packages: [],
    watched: [],
    chains: {},
    initMs: [1],
    initMedianMs: 1,
    initCpuMs: [1],
    initCpuMedianMs: 1,
  };
  const cold: ColdStartResult = {
    runs: 1,
    target: 'node20',
    nodeOptions: '',
    reference,
    functions: [],
    checks: [],
    referenceWithoutSourceMapsMs: 1,
  };
  await measureThenWrite(
    {
      coldStart: async () => cold,
      inProcess: async () => ({
        work: [],
        growth: [],
        codeCost: await codeCost(ctx, snapshot, userScenarios, {
          budgetMs: () => 30,
          warmups: 2,
          log: () => undefined,
        }),
        bcrypt: { cost: 4, compareMs: 1 },
        signatures: [],
        usersInTable: { small: 1, large: 1 },
        answersChecked: 0,
      }),
      runtime: async () => ({ durationSeconds: 1, levels: [], figures: [], answersChecked: 0 }),
    },
    {
      host: {
        date: new Date().toISOString(),
        cores: 1,
        cpu: 'test',
        memoryGiB: 1,
        node: process.version,
        commit: 'test',
        dirty: false,
        java: 'test',
        load: '0',
      },
      quick: true,
      started: performance.now(),
      write,
    },
  );
}

const withoutKey = (key: { PK: string; SK: string }) =>
  items.filter((i) => !(i.PK === key.PK && i.SK === key.SK));

describe('the benchmark checks every measured answer', () => {
  it('measures the client-credentials grant with a JWT access token through both canned stores', async () => {
    const { codeCost } = await import('../bench/measure.js');
    const { SCENARIOS } = await import('../bench/scenarios.js');
    const jwt = SCENARIOS.filter((s) => s.id === 'token-client_credentials-jwt');
    expect(jwt).toHaveLength(1);
    const [figure] = await codeCost(ctx, items, jwt, {
      budgetMs: () => 30,
      warmups: 2,
      log: () => undefined,
    });
    // Every read of the grant is answered by the snapshot, under the canned store and the full client.
    expect(figure).toMatchObject({ status: 200, sdk: { status: 200 } });
    expect(figure!.usPerRequest).toBeGreaterThan(0);
  });

  it('measures and writes the report when every answer is the one the scenario names', async () => {
    const write = vi.fn();
    await benchOn(items, write);
    expect(write).toHaveBeenCalledTimes(1);
    const report = String(write.mock.calls[0]![0]);
    expect(report).toContain('| GET /user (user token, 1 organization) | 200 |');
    expect(report).toContain('| GET /user with a permission decision | 200 |');
  });

  it('stops with a one-line reason, and writes nothing, when the user profile is missing', async () => {
    const write = vi.fn();
    const broken = withoutKey(keys.user(ctx.f.users.orgs1.user.id));
    const failure = await benchOn(broken, write).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(failure).toBeInstanceOf(WrongAnswer);
    const message = (failure as Error).message;
    expect(message).not.toContain('\n');
    expect(message).toMatch(
      /^code cost, canned store: GET \/user \(user token, 1 organization\) \(GET \/user\?access_token=…\): expected 200, got 40[14]: \{/,
    );
    expect(write).not.toHaveBeenCalled();
  });

  it('stops when the status is right but the body is not the answer (a membership not read)', async () => {
    const write = vi.fn();
    const userId = ctx.f.users.orgs1.user.id;
    const membership = items.find(
      (i) => i.PK === keys.userPartition(userId) && String(i.SK).startsWith(keys.membershipPrefix),
    );
    const broken = withoutKey({ PK: String(membership?.PK), SK: String(membership?.SK) });
    expect(broken.length).toBe(items.length - 1);
    await expect(benchOn(broken, write)).rejects.toThrow(
      /GET \/user \(user token, 1 organization\).*status 200 as expected, but 0 organizations instead of 1/,
    );
    expect(write).not.toHaveBeenCalled();
  });
});

describe('the load runs check every answer', () => {
  const request = { method: 'GET', url: '/user?access_token=secret' };
  const body = JSON.stringify({ id: 7, roles: [{ id: 1 }], organizations: [] });
  const shape = userWithRoles({ id: 7, organizations: 0 });

  it('passes a run whose every answer is right, and names the status of a 4xx workload', () => {
    const ok = new LoadCheck('GET /user', request, { status: 200, shape });
    for (let i = 0; i < 3; i++) ok.onResponse(200, body, {});
    expect(() =>
      ok.verify(10, { statusCodeStats: { 200: { count: 3 } }, errors: 0, timeouts: 0 }),
    ).not.toThrow();
    const refused = new LoadCheck('GET /user, revoked token', request, { status: 401 });
    refused.onResponse(401, '{"error":"invalid_token"}', {});
    expect(() =>
      refused.verify(1, { statusCodeStats: { 401: { count: 1 } }, errors: 0, timeouts: 0 }),
    ).not.toThrow();
  });

  it('stops at the first wrong answer and fails with the workload, request, statuses and body', () => {
    const stop = vi.fn();
    const check = new LoadCheck('GET /user', request, { status: 200, shape });
    check.stop = stop;
    check.onResponse(200, body, {});
    check.onResponse(500, '{"error":"server_error"}', {});
    expect(stop).toHaveBeenCalledTimes(1);
    expect(() => check.verify(50, { statusCodeStats: {}, errors: 0, timeouts: 0 })).toThrow(
      'local runtime at 50 connections: GET /user (GET /user?access_token=…): expected 200, got 500: {"error":"server_error"} [1 of 2 answers wrong]',
    );
  });

  it('fails on statuses autocannon counted, on requests with no answer, and on a run with none', () => {
    const counted = new LoadCheck('GET /user', request, { status: 200 });
    counted.onResponse(200, body, {});
    expect(() =>
      counted.verify(1, {
        statusCodeStats: { 200: { count: 1 }, 502: { count: 2 } },
        errors: 0,
        timeouts: 0,
      }),
    ).toThrow(/expected 200 only, autocannon counted 2 × 502/);
    expect(() => counted.verify(1, { statusCodeStats: {}, errors: 3, timeouts: 1 })).toThrow(
      /3 requests got no answer \(1 timed out\)/,
    );
    const silent = new LoadCheck('GET /user', request, { status: 200 });
    expect(() => silent.verify(1, { errors: 0, timeouts: 0 })).toThrow(/no request was answered/);
  });

  it('stops a real autocannon run against a server answering 500', async () => {
    const { loadRun } = await import('../bench/runtime.js');
    const server = createServer((_req, res) => {
      res.statusCode = 500;
      res.end('{"error":"server_error"}');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const address = server.address();
    const url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
    try {
      const workload = {
        id: 'user',
        label: 'GET /user',
        expect: { status: 200 },
        request: () => ({ method: 'GET', path: '/user' }),
      };
      const started = performance.now();
      await expect(loadRun(url, workload, {} as ServerInfo, 2, 10)).rejects.toThrow(
        /^local runtime at 2 connections: GET \/user: expected 200, got 500/,
      );
      // Stopped at the first wrong answer, not after the 10 s asked for.
      expect(performance.now() - started).toBeLessThan(5_000);
    } finally {
      server.close();
    }
  });
});
