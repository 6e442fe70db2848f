/**
 * Section 4, through the local runtime: the server runs in a child process (bench/server.ts) on
 * DynamoDB Local; autocannon drives it from this process at 1, 10 and 50 connections. Every
 * request goes through HTTP parsing, the payload 2.0 event, the middy stack and DynamoDB Local's
 * HTTP API, so DynamoDB Local (a Java emulator on the same 2 cores), not the service, bounds these.
 * Every answer is checked (bench/load-check.ts): one wrong status or body stops the run.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import autocannon from 'autocannon';
import { startTs, stopChild } from './children.js';
import { LoadCheck, type LoadOutcome } from './load-check.js';
import type { ServerInfo, ServerLoad } from './server.js';
import { type Workload, workloads } from './workloads.js';

export interface LoadFigure {
  id: string;
  label: string;
  connections: number;
  seconds: number;
  requests: number;
  rps: number;
  p50Ms: number;
  p99Ms: number;
  /** The one status every answer had (checked), and how many answers were checked. */
  status: number;
  answers: number;
  /**
   * The server process's CPU time per request it completed in the run (its tail of requests
   * whose clients had gone included, up to the drain), in microseconds.
   */
  serviceCpuMicrosPerRequest: number;
}

export interface RuntimeResult {
  durationSeconds: number;
  levels: number[];
  figures: LoadFigure[];
  /** Answers checked, warm-up runs included. */
  answersChecked: number;
}

/** autocannon's callback form returns the run, which can be stopped (the promise form cannot). */
type Autocannon = (
  options: autocannon.Options,
  done: (error: Error | null, result: autocannon.Result & LoadOutcome) => void,
) => { stop(): void };

const load = (info: ServerInfo): Promise<ServerLoad> =>
  fetch(info.inFlightUrl).then((r) => r.json() as Promise<ServerLoad>);

/**
 * Waits until the server has worked off what the last run left (autocannon stops sending at the
 * deadline, but the server finishes every request it took: the password grant leaves seconds of
 * bcrypt work on its one event loop), so that one workload's tail never lands in the next one's
 * figures: the server's in-flight count must read 0 twice, 50 ms apart. Returns the last reading.
 */
async function drain(info: ServerInfo): Promise<ServerLoad> {
  const deadline = Date.now() + 60_000;
  let idle = 0;
  let last: ServerLoad;
  do {
    if (Date.now() > deadline) throw new Error('the bench server was still busy 60 s after a load run');
    last = await load(info);
    idle = last.inFlight === 0 ? idle + 1 : 0;
    if (idle < 2) await sleep(50);
  } while (idle < 2);
  return last;
}

/**
 * The server's CPU per request between two readings. The readings themselves are requests to
 * the same process (a few hundred microseconds each over the run); they are not subtracted, so
 * the figure errs high, never low.
 */
function cpuPerRequest(before: ServerLoad, after: ServerLoad): number {
  const requests = after.completed - before.completed;
  if (requests <= 0) throw new Error('the bench server completed no request in a load run');
  return (after.cpuMicros - before.cpuMicros) / requests;
}

/** One load run; every answer goes through `check`, which stops the run at a wrong one. */
export function loadRun(
  url: string,
  w: Workload,
  info: ServerInfo,
  connections: number,
  seconds: number,
): Promise<autocannon.Result & { check: LoadCheck }> {
  const request = w.request(info);
  const check = new LoadCheck(
    w.label,
    { method: request.method ?? 'GET', url: request.path ?? '/' },
    w.expect,
    w.note,
  );
  return new Promise((resolve, reject) => {
    const running = (autocannon as unknown as Autocannon)(
      {
        url,
        connections,
        duration: seconds,
        requests: [{ ...request, onResponse: check.onResponse } as autocannon.Request],
        // One request in flight per connection, as clients of an identity service behave.
        pipelining: 1,
      },
      (error, result) => {
        if (error) return reject(error);
        try {
          check.verify(connections, result);
          resolve({ ...result, check });
        } catch (wrong) {
          reject(wrong);
        }
      },
    );
    check.stop = () => running.stop();
  });
}

export async function runtimeSection(options: {
  env: NodeJS.ProcessEnv;
  quick: boolean;
  log: (line: string) => void;
  tmp: string;
}): Promise<RuntimeResult> {
  // A quick run lasts 1 s per level: too short for 50 queued bcrypt comparisons to finish.
  const levels = options.quick ? [1, 10] : [1, 10, 50];
  const seconds = options.quick ? 1 : 5;
  // Enough single-use codes and refresh tokens for the fastest level to never run out.
  const singleUse = options.quick ? 800 : 2500;
  const out = join(options.tmp, 'server.json');
  const child = startTs('bench/server.ts', {
    ...options.env,
    BENCH_OUT: out,
    BENCH_SINGLE_USE: String(singleUse * levels.length),
  });
  try {
    const deadline = Date.now() + 180_000;
    while (!existsSync(out)) {
      if (child.exitCode !== null) throw new Error('the bench server exited before it was ready');
      if (Date.now() > deadline) throw new Error('the bench server was not ready within 3 minutes');
      await sleep(200);
    }
    await sleep(100);
    const info = JSON.parse(readFileSync(out, 'utf8')) as ServerInfo;
    const figures: LoadFigure[] = [];
    let answersChecked = 0;
    for (const w of workloads(info)) {
      // Warm up outside the measurement: the route's handler (module load, kept-alive connections)
      // and DynamoDB Local's JIT on this route's calls: after 1 s of warm-up the emulator still
      // answered so slowly that one connection made 305 grants/s, against 423–494 after 5 s or
      // more, and at one connection the server's CPU per request grows with how long it waits for
      // each answer ("Where the CPU goes", docs/benchmarks.md).
      const warmUp = await loadRun(info.url, w, info, 10, options.quick ? 1 : 3);
      answersChecked += warmUp.check.answers;
      let before = await drain(info);
      for (const connections of levels) {
        const r = await loadRun(info.url, w, info, connections, seconds);
        answersChecked += r.check.answers;
        const after = await drain(info);
        const serviceCpu = cpuPerRequest(before, after);
        before = after;
        figures.push({
          id: w.id,
          label: w.label,
          connections,
          seconds,
          requests: r.requests.total,
          rps: r.requests.average,
          p50Ms: r.latency.p50,
          p99Ms: r.latency.p99,
          status: w.expect.status,
          answers: r.check.answers,
          serviceCpuMicrosPerRequest: serviceCpu,
        });
        options.log(
          `${w.id} @${connections}: ${r.requests.average.toFixed(0)} req/s, p50 ${r.latency.p50} ms, p99 ${r.latency.p99} ms, ${r.check.answers} answers, all ${w.expect.status}, service CPU ${(serviceCpu / 1000).toFixed(2)} ms/request`,
        );
      }
    }
    return { durationSeconds: seconds, levels, figures, answersChecked };
  } finally {
    await stopChild(child);
  }
}
