/**
 * `npm run bench`: measures cold start, DynamoDB work, code cost, throughput through the local
 * runtime, growth and cost per million requests, and writes docs/benchmarks.md. It starts its own
 * DynamoDB Local (in memory, on a free port), prepares its own data in its own tables, and stops
 * and removes everything it started when it ends, failed or not.
 *
 *   npm run bench                   full run (about 5-7 minutes on 2 cores)
 *   npm run bench -- --quick        small iteration counts, for checking the harness (figures not written)
 *   npm run bench -- --out FILE     write the report elsewhere
 *
 * The first measured request that answers other than its scenario expects stops the run with a
 * one-line reason and exit code 1, and nothing is written (bench/answers.ts, bench/pipeline.ts).
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DeleteTableCommand } from '@aws-sdk/client-dynamodb';
import {
  type Emulator,
  ensureLocalTable,
  freePort,
  localDynamoClient,
  startDynamoDbLocal,
} from '../local/emulators.js';
import { LOCAL, localEnv } from '../local/runtime.js';
import { childFailure, WrongAnswer } from './answers.js';
import { runTs, stopAllChildren } from './children.js';
import { coldStart } from './cold-start.js';
import type { InProcessResult } from './in-process.js';
import { machine } from './machine.js';
import { measureThenWrite } from './pipeline.js';
import type { Verdict } from './report.js';
import { runtimeSection } from './runtime.js';

const args = process.argv.slice(2);
const quick = args.includes('--quick');
const outIndex = args.indexOf('--out');
const outFile = outIndex >= 0 ? args[outIndex + 1]! : quick ? undefined : 'docs/benchmarks.md';

const started = performance.now();
const elapsed = () => `${((performance.now() - started) / 1000).toFixed(0)} s`;
const log = (line: string) => console.log(`[bench ${elapsed()}] ${line}`);

async function dropTable(endpoint: string, name: string): Promise<void> {
  const client = localDynamoClient(endpoint);
  await client.send(new DeleteTableCommand({ TableName: name }));
  client.destroy();
}

async function main(): Promise<void> {
  const tmp = mkdtempSync(join(tmpdir(), 'gatehouse-bench-'));
  // Bundles live under node_modules so the logo function's external `sharp` resolves.
  const bundleDir = join('node_modules', '.cache', `gatehouse-bench-${process.pid}`);
  let dynamo: Emulator | undefined;
  const stop = async () => {
    await stopAllChildren();
    await dynamo?.stop();
    rmSync(tmp, { recursive: true, force: true });
    rmSync(bundleDir, { recursive: true, force: true });
  };
  process.once('SIGINT', () => {
    void stop().then(() => process.exit(130));
  });
  try {
    const host = machine();
    log(
      `${host.cores} cores, ${host.cpu}, Node ${host.node}, commit ${host.commit}${quick ? ' (quick)' : ''}`,
    );
    const baseEnv = {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? tmp,
      NODE_ENV: 'production',
    };
    const suffix = `${Date.now().toString(36)}`;
    const tables = { inProcess: `bench-in-process-${suffix}`, runtime: `bench-runtime-${suffix}` };
    const handlerEnv = (table: string) => ({
      ...baseEnv,
      ...localEnv({
        table,
        logoBucket: LOCAL.logoBucket,
        dynamodbEndpoint: dynamo!.endpoint,
        s3Endpoint: 'http://127.0.0.1:1',
      }),
      IDM_PUBLIC_URL: 'http://localhost',
      // The JWT application's grant signs: a key set of the run's own, never the developer's .data/.
      IDM_SIGNING_KEYS_FILE: join(tmp, 'signing-keys.json'),
      // Keyrock jwt secrets are sealed with the at-rest key: the run's own as well.
      IDM_AT_REST_KEY_FILE: join(tmp, 'at-rest-key'),
      IDM_BCRYPT_COST: '10',
      ...(quick ? { BENCH_QUICK: '1' } : {}),
    });

    await measureThenWrite(
      {
        coldStart: () => {
          log('section 1: cold start');
          return coldStart({
            runs: quick ? 3 : 15,
            outDir: bundleDir,
            env: { ...baseEnv, IDM_TABLE_NAME: 'bench', AWS_REGION: LOCAL.region },
            log,
          });
        },
        inProcess: async () => {
          dynamo = await startDynamoDbLocal({ port: await freePort() });
          log(`DynamoDB Local on ${dynamo.endpoint}`);
          await Promise.all(Object.values(tables).map((t) => ensureLocalTable(dynamo!.endpoint, t)));
          log('sections 2, 5, 3: DynamoDB work, growth, code cost (in-process handlers)');
          const out = join(tmp, 'in-process.json');
          await runTs('bench/in-process.ts', { ...handlerEnv(tables.inProcess), BENCH_OUT: out }).catch(
            (error: unknown) => {
              throw childFailure(error, out);
            },
          );
          // Free the emulator's memory held by the 100,000 users before the load runs.
          await dropTable(dynamo.endpoint, tables.inProcess);
          return JSON.parse(readFileSync(out, 'utf8')) as InProcessResult;
        },
        runtime: () => {
          log('section 4: through the local runtime (autocannon)');
          return runtimeSection({ env: handlerEnv(tables.runtime), quick, log, tmp });
        },
      },
      { host, quick, started, write: (report, missed) => publish(report, missed) },
    );
  } finally {
    await stop();
    log('done; emulator stopped, temporary files removed');
  }
}

/** Prints the budgets missed, then writes the report (or prints it, with --quick). */
function publish(report: string, missed: Verdict[]): void {
  log(
    missed.length === 0
      ? 'every budget met'
      : `budgets missed:\n${missed.map((v) => `  - ${v.budget}: ${v.detail}`).join('\n')}`,
  );
  if (!outFile) {
    console.log(report);
    return;
  }
  writeFileSync(outFile, report);
  // `npm run lint` checks Markdown formatting too: write the tables as Biome lays them out.
  try {
    execFileSync(join('node_modules', '.bin', 'biome'), ['format', '--write', outFile], {
      stdio: 'ignore',
    });
  } catch {
    log(`${outFile} is written unformatted (Biome formats files inside the project only)`);
  }
  log(`wrote ${outFile}`);
}

main().catch((error: unknown) => {
  if (error instanceof WrongAnswer) {
    // One line: what was measured, what it answered instead. Nothing was written.
    console.error(`bench stopped, no report written: ${error.message}`);
  } else {
    console.error('bench failed:', error);
  }
  process.exit(1);
});
