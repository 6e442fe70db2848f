import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import mysql from 'mysql2/promise';
import { freePort } from '../../local/emulators.js';

/**
 * A real MariaDB for the Keyrock import's tests: Debian's `mariadb-server` (which .ci/run
 * installs), started on a fresh data directory and a free port on 127.0.0.1, with a
 * password-less root over TCP, and removed again afterwards.
 */
export interface MariaDb {
  port: number;
  url(database: string): string;
  query(sql: string, values?: unknown[]): Promise<unknown>;
  stop(): Promise<void>;
}

export async function startMariaDb(): Promise<MariaDb> {
  const dir = mkdtempSync(join(tmpdir(), 'gatehouse-mariadb-'));
  const user = process.env.USER ?? 'root';
  const install = spawnSync(
    'mariadb-install-db',
    [
      '--no-defaults',
      `--datadir=${join(dir, 'data')}`,
      '--auth-root-authentication-method=normal',
      '--skip-test-db',
      `--user=${user}`,
    ],
    { encoding: 'utf8' },
  );
  if (install.error || install.status !== 0) {
    rmSync(dir, { recursive: true, force: true });
    throw new Error(
      `MariaDB is needed for the Keyrock import tests (Debian: apt-get install mariadb-server; .ci/run installs it): ${install.error?.message ?? install.stderr}`,
    );
  }
  const port = await freePort();
  const server: ChildProcess = spawn(
    'mariadbd',
    [
      '--no-defaults',
      `--datadir=${join(dir, 'data')}`,
      `--socket=${join(dir, 'mysqld.sock')}`,
      `--pid-file=${join(dir, 'mysqld.pid')}`,
      `--port=${port}`,
      '--bind-address=127.0.0.1',
      `--user=${user}`,
      '--skip-log-bin',
      '--innodb-buffer-pool-size=16M',
    ],
    { stdio: 'ignore' },
  );
  const admin = async () =>
    mysql.createConnection({ host: '127.0.0.1', port, user: 'root', multipleStatements: true });
  let conn: mysql.Connection | undefined;
  for (let i = 0; i < 150 && !conn; i++) {
    if (server.exitCode !== null) break;
    conn = await admin().catch(() => undefined);
    if (!conn) await sleep(100);
  }
  if (!conn) {
    server.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
    throw new Error('MariaDB did not start within 15 s');
  }
  const open = conn;
  return {
    port,
    url: (database) => `mysql://root@127.0.0.1:${port}/${database}`,
    query: async (sql, values) => (await open.query(sql, values))[0],
    async stop() {
      await open.end().catch(() => undefined);
      server.kill('SIGTERM');
      await new Promise((resolve) =>
        server.exitCode !== null ? resolve(undefined) : server.once('exit', resolve),
      );
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
