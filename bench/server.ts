/**
 * Section 4's server: the local runtime (`npm start`'s createLocalServer: routes → the same
 * handlers Lambda runs) on DynamoDB Local, in its own process so the load generator does not share
 * its event loop. It prepares its data first, including single-use codes and refresh tokens for
 * the load runs, writes what the load generator needs to BENCH_OUT, and serves until SIGTERM.
 */
import { writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { createLocalServer } from '../local/server.js';
import { db as processDb } from '../shared/store/db.js';
import { CALLBACK, freshCode, freshRefreshToken, PASSWORD, prepare } from './fixtures.js';

export interface ServerInfo {
  url: string;
  authorization: string;
  email: string;
  password: string;
  callback: string;
  userToken: string;
  /** The id of the token's user (the one in one organization), for the answer checks. */
  userId: number;
  decisionQuery: string;
  /** Answers the server's load counters and CPU time (`ServerLoad`, see `countInFlight`). */
  inFlightUrl: string;
  codes: string[];
  refreshTokens: string[];
}

async function many(count: number, make: () => Promise<string>, concurrency = 16): Promise<string[]> {
  const out: string[] = [];
  let started = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (started < count) {
        started++;
        out.push(await make());
      }
    }),
  );
  return out;
}

/** What the bench server's second port answers (bench/runtime.ts reads it around each run). */
export interface ServerLoad {
  /** Requests taken whose response has not ended yet. */
  inFlight: number;
  /** Requests whose response has ended, since the process started. */
  completed: number;
  /** This process's CPU time (user + system, so the garbage collector too), microseconds. */
  cpuMicros: number;
}

/**
 * Counts requests until their handler ends the response, including those whose client has gone:
 * autocannon drops its connections at the deadline, but the server keeps working (the password
 * grant's queued bcrypt comparisons, seconds of them), and that work must not land in the next
 * run's figures. A second server on its own port reports the counts and the process's CPU time,
 * so the service's CPU per request is read where it is spent (not from wall time, which also
 * counts DynamoDB Local and the load generator on the same cores).
 */
async function countInFlight(server: Server): Promise<string> {
  let inFlight = 0;
  let completed = 0;
  server.prependListener('request', (_request, response) => {
    inFlight++;
    const end = response.end.bind(response);
    let ended = false;
    response.end = ((...args: Parameters<typeof end>) => {
      if (!ended) {
        inFlight--;
        completed++;
      }
      ended = true;
      return end(...args);
    }) as typeof response.end;
  });
  const counter = createServer((_request, response) => {
    const cpu = process.cpuUsage();
    const load: ServerLoad = { inFlight, completed, cpuMicros: cpu.user + cpu.system };
    response.setHeader('content-type', 'application/json');
    response.end(JSON.stringify(load));
  });
  await new Promise<void>((resolve) => counter.listen(0, '127.0.0.1', resolve));
  const address = counter.address();
  return `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/`;
}

async function main(): Promise<void> {
  const db = processDb();
  const f = await prepare(db, { with50Orgs: false });
  const single = Number(process.env.BENCH_SINGLE_USE ?? '1000');
  const t = performance.now();
  const [codes, refreshTokens] = await Promise.all([
    many(single, () => freshCode(db, f)),
    many(single, () => freshRefreshToken(db, f)),
  ]);
  process.stderr.write(
    `  issued ${codes.length} codes and ${refreshTokens.length} refresh tokens in ${(
      (performance.now() - t) / 1000
    ).toFixed(1)} s\n`,
  );
  const server = createLocalServer({ portalDir: 'portal/dist', logoBucket: 'unused' });
  const inFlightUrl = await countInFlight(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  const info: ServerInfo = {
    url: `http://127.0.0.1:${port}`,
    authorization: f.authorization,
    email: f.users.orgs1.email,
    password: PASSWORD,
    callback: CALLBACK,
    userToken: f.users.orgs1.accessToken,
    userId: f.users.orgs1.user.id,
    decisionQuery: `action=${f.permission.verb}&resource=${encodeURIComponent(f.permission.path)}`,
    codes,
    refreshTokens,
    inFlightUrl,
  };
  writeFileSync(process.env.BENCH_OUT!, JSON.stringify(info));
  process.once('SIGTERM', () => {
    server.closeAllConnections();
    server.close(() => process.exit(0));
  });
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
