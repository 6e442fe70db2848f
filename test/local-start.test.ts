/**
 * `npm start` as a user runs it: a child process on free ports and a temporary DATA_DIR, stopped
 * with Ctrl-C (SIGINT). tsx is run directly, not through npm, so the signal reaches it.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort, portFree } from '../local/emulators.js';
import { runIdm } from './support/cli.js';

const TSX = join(process.cwd(), 'node_modules', 'tsx', 'dist', 'cli.mjs');
const dataDir = mkdtempSync(join(tmpdir(), 'gatehouse-start-'));
const started: ChildProcess[] = [];

afterAll(() => {
  // Only if a test failed half-way: our own children, by pid.
  for (const child of started)
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  rmSync(dataDir, { recursive: true, force: true });
});

interface Ports {
  PORT: string;
  DYNAMODB_PORT: string;
  S3_PORT: string;
  MAIL_PORT: string;
  MAIL_WEB_PORT: string;
}

async function ports(): Promise<Ports> {
  const [a, b, c, d, e] = await Promise.all([freePort(), freePort(), freePort(), freePort(), freePort()]);
  return {
    PORT: String(a),
    DYNAMODB_PORT: String(b),
    S3_PORT: String(c),
    MAIL_PORT: String(d),
    MAIL_WEB_PORT: String(e),
  };
}

interface Running {
  child: ChildProcess;
  stdout: () => string;
  stderr: () => string;
  exited: Promise<number | null>;
}

function start(env: Record<string, string>): Running {
  const child = spawn(process.execPath, [TSX, 'local/start.ts'], {
    env: { ...process.env, DATA_DIR: dataDir, IDM_BCRYPT_COST: '4', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  started.push(child);
  let out = '';
  let err = '';
  child.stdout!.on('data', (c) => {
    out += String(c);
  });
  child.stderr!.on('data', (c) => {
    err += String(c);
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { child, stdout: () => out, stderr: () => err, exited };
}

async function untilListening(run: Running): Promise<void> {
  const deadline = Date.now() + 90_000;
  while (!/listening on/.test(run.stdout())) {
    if (run.child.exitCode !== null) throw new Error(`npm start exited: ${run.stderr()}`);
    if (Date.now() > deadline) throw new Error(`npm start did not listen: ${run.stdout()} ${run.stderr()}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Java processes whose command line names this DynamoDB Local port (read from /proc, never killed). */
function javaOnPort(port: string): number[] {
  const pids: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const args = readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0');
      const i = args.indexOf('-port');
      if (args[0]?.endsWith('java') && i !== -1 && args[i + 1] === port) pids.push(Number(entry));
    } catch {
      // The process ended while we looked.
    }
  }
  return pids;
}

function idm(env: Record<string, string>, ...args: string[]) {
  const clean = { ...process.env };
  for (const k of Object.keys(clean)) if (k.startsWith('IDM_')) delete clean[k];
  return runIdm({ ...clean, DATA_DIR: dataDir, IDM_BCRYPT_COST: '4', ...env }, args);
}

async function scimTotals(port: string) {
  const res = await fetch(`http://localhost:${port}/v2/ServiceProviderConfigs`);
  expect(res.status).toBe(200);
  return (await res.json()) as { totalUsers: string; totalOrganizations: string };
}

describe('npm start', () => {
  it('serves, logs each request, lets the CLI act on its data, stops on Ctrl-C and keeps records', async () => {
    const p = await ports();
    const first = start({ ...p });
    await untilListening(first);
    expect(first.stdout().trim().split('\n')).toEqual([
      `Gatehouse is listening on http://localhost:${p.PORT} (mail inbox on http://127.0.0.1:${p.MAIL_WEB_PORT}; data in ${dataDir}; Ctrl-C to stop)`,
    ]);
    // The mail catcher's inbox answers on its printed port.
    expect((await fetch(`http://127.0.0.1:${p.MAIL_WEB_PORT}/api/email`)).status).toBe(200);
    expect(first.stderr()).toBe('');
    expect(await scimTotals(p.PORT)).toMatchObject({ totalUsers: '0' });
    // One line per request: method, path, status, duration.
    await new Promise((r) => setTimeout(r, 100));
    expect(first.stdout()).toMatch(/\nGET \/v2\/ServiceProviderConfigs 200 \d+(\.\d+)?ms\n$/);

    // The CLI finds this npm start through DATA_DIR/runtime.json, with no other settings.
    const user = await idm({}, 'user', 'create', '--email', 'keep@example.com', '--password', 'long-enough');
    expect(user.stderr).toBe('');
    expect(JSON.parse(user.stdout)).toMatchObject({ id: 1, email: 'keep@example.com' });
    const org = await idm({}, 'org', 'create', '--owner', '1', '--name', 'Kept');
    expect(JSON.parse(org.stdout)).toMatchObject({ id: 1 });
    expect(await scimTotals(p.PORT)).toMatchObject({ totalUsers: '1', totalOrganizations: '1' });
    expect(javaOnPort(p.DYNAMODB_PORT)).toHaveLength(1);

    first.child.kill('SIGINT');
    expect(await first.exited).toBe(0);
    expect(javaOnPort(p.DYNAMODB_PORT)).toEqual([]);
    expect(await portFree(Number(p.PORT))).toBe(true);
    expect(await portFree(Number(p.DYNAMODB_PORT))).toBe(true);
    expect(await portFree(Number(p.S3_PORT))).toBe(true);
    expect(await portFree(Number(p.MAIL_PORT))).toBe(true);
    expect(await portFree(Number(p.MAIL_WEB_PORT))).toBe(true);

    // With npm start stopped, the CLI opens DATA_DIR's files itself.
    const offline = await idm(
      {},
      'user',
      'create',
      '--email',
      'offline@example.com',
      '--password',
      'long-enough',
    );
    expect(offline.stderr).toBe('');
    expect(JSON.parse(offline.stdout)).toMatchObject({ id: 2 });

    // A second start on the same DATA_DIR (other ports, even) sees every record.
    const q = await ports();
    const second = start({ ...q });
    await untilListening(second);
    expect(await scimTotals(q.PORT)).toMatchObject({ totalUsers: '2', totalOrganizations: '1' });
    second.child.kill('SIGINT');
    expect(await second.exited).toBe(0);
    expect(javaOnPort(q.DYNAMODB_PORT)).toEqual([]);
  }, 240_000);

  it('says so in one sentence and exits non-zero when a port is taken', async () => {
    const p = await ports();
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(Number(p.PORT), '127.0.0.1', resolve));
    try {
      const run = start({ ...p });
      expect(await run.exited).toBe(1);
      expect(run.stderr().trim()).toBe(
        `Port ${p.PORT} is already in use; stop what holds it or set PORT to another port.`,
      );
      expect(javaOnPort(p.DYNAMODB_PORT)).toEqual([]);
    } finally {
      blocker.close();
    }
  }, 60_000);

  it('says so in one sentence and exits non-zero when Java is missing', async () => {
    // A PATH with node and nothing else.
    const bin = mkdtempSync(join(tmpdir(), 'gatehouse-nojava-'));
    symlinkSync(process.execPath, join(bin, 'node'));
    const run = start({ ...(await ports()), PATH: bin });
    expect(await run.exited).toBe(1);
    expect(run.stderr().trim()).toBe(
      'Java was not found: DynamoDB Local needs Java 17 or newer on the PATH (for example apt-get install openjdk-17-jre-headless).',
    );
    rmSync(bin, { recursive: true, force: true });
  }, 60_000);
});
