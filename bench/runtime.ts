/**
 * Section 4, through the local runtime: the server runs in a child process (bench/server.ts) on
 * DynamoDB Local; autocannon drives it from this process at 1, 10 and 50 connections. Every
 * request goes through HTTP parsing, the payload 2.0 event, the middy stack and DynamoDB Local's
 * HTTP API, so DynamoDB Local (a Java emulator on the same 2 cores), not the service, bounds these.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import autocannon from 'autocannon';
import { startTs, stopChild } from './children.js';
import type { ServerInfo } from './server.js';

export interface LoadFigure {
  id: string;
  label: string;
  connections: number;
  seconds: number;
  requests: number;
  rps: number;
  p50Ms: number;
  p99Ms: number;
  non2xx: number;
  errors: number;
}

export interface RuntimeResult {
  durationSeconds: number;
  levels: number[];
  figures: LoadFigure[];
}

interface Workload {
  id: string;
  label: string;
  request(info: ServerInfo): autocannon.Request;
}

const tokenHeaders = (info: ServerInfo) => ({
  authorization: info.authorization,
  'content-type': 'application/x-www-form-urlencoded',
});

/** Hands out single-use values in order; past the end, requests fail and count as non-2xx. */
function takeFrom(list: string[]): () => string {
  let next = 0;
  return () => list[next++] ?? 'exhausted';
}

function workloads(info: ServerInfo): Workload[] {
  const code = takeFrom(info.codes);
  const refresh = takeFrom(info.refreshTokens);
  const form = (fields: Record<string, string>) => new URLSearchParams(fields).toString();
  const user = `/user?access_token=${encodeURIComponent(info.userToken)}`;
  return [
    {
      id: 'client_credentials',
      label: 'POST /oauth2/token client_credentials',
      request: (i) => ({
        method: 'POST',
        path: '/oauth2/token',
        headers: tokenHeaders(i),
        body: form({ grant_type: 'client_credentials' }),
      }),
    },
    {
      id: 'password',
      label: 'POST /oauth2/token password (bcrypt cost 10)',
      request: (i) => ({
        method: 'POST',
        path: '/oauth2/token',
        headers: tokenHeaders(i),
        body: form({ grant_type: 'password', username: i.email, password: i.password }),
      }),
    },
    {
      id: 'authorization_code',
      label: 'POST /oauth2/token authorization_code (pre-issued codes)',
      request: (i) => ({
        method: 'POST',
        path: '/oauth2/token',
        headers: tokenHeaders(i),
        setupRequest: (req: autocannon.Request) => ({
          ...req,
          body: form({ grant_type: 'authorization_code', code: code(), redirect_uri: i.callback }),
        }),
      }),
    },
    {
      id: 'refresh_token',
      label: 'POST /oauth2/token refresh_token (pre-issued, rotated)',
      request: (i) => ({
        method: 'POST',
        path: '/oauth2/token',
        headers: tokenHeaders(i),
        setupRequest: (req: autocannon.Request) => ({
          ...req,
          body: form({ grant_type: 'refresh_token', refresh_token: refresh() }),
        }),
      }),
    },
    { id: 'user', label: 'GET /user', request: () => ({ method: 'GET', path: user }) },
    {
      id: 'user-decision',
      label: 'GET /user with a decision',
      request: (i) => ({ method: 'GET', path: `${user}&${i.decisionQuery}` }),
    },
  ];
}

/**
 * Waits until the server has worked off what the last run left queued (autocannon stops sending
 * at the deadline, but the password grant leaves a backlog of bcrypt work on the server's one
 * event loop), so that one workload's tail never lands in the next one's figures.
 */
async function drain(url: string): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    const started = performance.now();
    await fetch(`${url}/.well-known/oauth-authorization-server`).then((r) => r.arrayBuffer());
    if (performance.now() - started < 20) return;
  }
}

function run(url: string, request: autocannon.Request, connections: number, seconds: number) {
  return autocannon({
    url,
    connections,
    duration: seconds,
    requests: [request],
    // One request in flight per connection, as clients of an identity service behave.
    pipelining: 1,
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
    for (const w of workloads(info)) {
      // Warm the route's handler (module load, SDK connection pool) outside the measurement.
      await run(info.url, w.request(info), 2, 1);
      await drain(info.url);
      for (const connections of levels) {
        const r = await run(info.url, w.request(info), connections, seconds);
        await drain(info.url);
        figures.push({
          id: w.id,
          label: w.label,
          connections,
          seconds,
          requests: r.requests.total,
          rps: r.requests.average,
          p50Ms: r.latency.p50,
          p99Ms: r.latency.p99,
          non2xx: r.non2xx,
          errors: r.errors + r.timeouts,
        });
        options.log(
          `${w.id} @${connections}: ${r.requests.average.toFixed(0)} req/s, p50 ${r.latency.p50} ms, p99 ${r.latency.p99} ms, non-2xx ${r.non2xx}`,
        );
      }
    }
    return { durationSeconds: seconds, levels, figures };
  } finally {
    await stopChild(child);
  }
}
