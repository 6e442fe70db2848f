/**
 * How fast `idm import keyrock` moves users: a real MariaDB (Debian's mariadb-server) holding
 * Keyrock's tables with N users (HMAC-SHA1 passwords, as Keyrock writes them), imported through
 * bin/idm.mjs as an operator runs it into DynamoDB Local, twice (the second run finds everything
 * imported). Usage: `npx tsx scripts/import-speed.ts [users]` (default 100000). Prints one JSON
 * line with the figures; exits 1 when the import did not write every user or the totals disagree.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, localDynamoClient, startDynamoDbLocal } from '../local/emulators.js';
import { createDb } from '../shared/store/db.js';
import { totals } from '../shared/store/stats.js';
import { ensureTable } from '../shared/store/table.js';
import { APP_SCHEMA, keyrockPassword, USER_SCHEMA } from '../test/support/keyrock-schema.js';
import { startMariaDb } from '../test/support/mariadb.js';

const count = Number(process.argv[2] ?? 100_000);
if (!Number.isSafeInteger(count) || count < 1) throw new Error('users must be a positive integer');

function idm(env: NodeJS.ProcessEnv, args: string[]): Promise<{ ms: number; stdout: string }> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      ['bin/idm.mjs', ...args],
      { env, maxBuffer: 1 << 30 },
      (error, stdout, stderr) => {
        if (error) reject(new Error(`idm failed: ${stderr.trim().split('\n').at(-1)}`));
        else resolve({ ms: performance.now() - started, stdout });
      },
    );
  });
}

const port = await freePort();
const [dynamo, maria] = await Promise.all([startDynamoDbLocal({ port }), startMariaDb()]);
const dataDir = mkdtempSync(join(tmpdir(), 'gatehouse-import-speed-'));
try {
  const endpoint = `http://127.0.0.1:${port}`;
  const table = 'import-speed';
  await ensureTable(localDynamoClient(endpoint), table);
  await maria.query('CREATE DATABASE idm');
  await maria.query(`USE idm; ${USER_SCHEMA} ${APP_SCHEMA}`);
  const hash = keyrockPassword('salt', 'a long password');
  for (let from = 0; from < count; from += 1000) {
    const rows: unknown[] = [];
    const n = Math.min(1000, count - from);
    for (let i = from; i < from + n; i++) {
      const id = `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`;
      rows.push(id, `user${i}`, `user${i}@example.com`, hash, 'salt');
    }
    await maria.query(
      `INSERT INTO idm.user (id, username, email, password, salt, enabled, date_password) VALUES ${Array(n)
        .fill("(?, ?, ?, ?, ?, 1, '2024-01-01 00:00:00')")
        .join(',')}`,
      rows,
    );
  }
  const env = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    IDM_TABLE_NAME: table,
    IDM_DYNAMODB_ENDPOINT: endpoint,
    AWS_REGION: 'us-east-1',
    AWS_ACCESS_KEY_ID: 'local',
    AWS_SECRET_ACCESS_KEY: 'local',
    AWS_EC2_METADATA_DISABLED: 'true',
    DATA_DIR: dataDir,
  };
  const args = ['import', 'keyrock', '--from', maria.url('idm')];
  const first = await idm(env, args);
  const second = await idm(env, args);
  const summary = JSON.parse(first.stdout) as { users: { written: number } };
  const again = JSON.parse(second.stdout) as { users: { written: number; skipped: number } };
  const total = (await totals(createDb({ table, endpoint }))).users;
  const figures = {
    users: count,
    firstRunSeconds: Math.round(first.ms / 100) / 10,
    usersPerSecond: Math.round(count / (first.ms / 1000)),
    secondRunSeconds: Math.round(second.ms / 100) / 10,
    written: summary.users.written,
    writtenAgain: again.users.written,
    usersTotal: total,
  };
  console.log(JSON.stringify(figures));
  if (summary.users.written !== count || again.users.written !== 0 || total !== count) process.exitCode = 1;
} finally {
  await Promise.all([dynamo.stop(), maria.stop()]);
  rmSync(dataDir, { recursive: true, force: true });
}
