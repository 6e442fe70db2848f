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
import type { ServerInfo } from './server.js';
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

/**
 * Waits until the server has worked off what the last run left (autocannon stops sending at the
 * deadline, but the server finishes every request it took: the password grant leaves seconds of
 * bcrypt work on its one event loop), so that one workload's tail never lands in the next one's
 * figures: the server's in-flight count must read 0 twice, 50 ms apart.
 */
async function drain(info: ServerInfo): Promise<void> {
  const deadline = Date.now() + 60_000;
  let idle = 0;
  while (idle < 2) {
    if (Date.now() > deadline) throw new Error('the bench server was still busy 60 s after a load run');
    const inFlight = await fetch(info.inFlightUrl).then((r) => r.text());
    idle = inFlight === '0' ? idle + 1 : 0;
    await sleep(50);
  }
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
  const levels = [1, 10, 50];
  const seconds = options.quick ? 1 : 5;
  // Enough single-use codes and refresh tokens for the fastest level to never run out.
  const singleUse = options.quick ? 300 : 2500;
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
      // Warm the route's handler (module load, SDK connection pool) outside the measurement.
      answersChecked += (await loadRun(info.url, w, info, 2, 1)).check.answers;
      await drain(info);
      for (const connections of levels) {
        const r = await loadRun(info.url, w, info, connections, seconds);
        answersChecked += r.check.answers;
        await drain(info);
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
        });
        options.log(
          `${w.id} @${connections}: ${r.requests.average.toFixed(0)} req/s, p50 ${r.latency.p50} ms, p99 ${r.latency.p99} ms, ${r.check.answers} answers, all ${w.expect.status}`,
        );
      }
    }
    return { durationSeconds: seconds, levels, figures, answersChecked };
  } finally {
    await stopChild(child);
  }
}
