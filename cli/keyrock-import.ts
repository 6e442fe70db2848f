/**
 * `idm import keyrock --from mysql://user:pass@host:3306/idm [--dry-run]`: moves a Keyrock 7/8
 * database into Gatehouse's table, reading MySQL with `mysql2` (the maintained driver; the only
 * place that imports it, so no function bundle carries it) and writing through the domain's
 * import functions (shared/domain/keyrock-import.ts), which claim each Keyrock id in the
 * record's own transaction: a second run, or a run started again after an interruption, writes
 * only what is missing. Progress goes to stderr on a terminal; the summary is the command's JSON.
 */
import mysql from 'mysql2/promise';
import { config } from '../shared/config.js';
import {
  alreadyImported,
  importMembership,
  importOrganization,
  importUsers,
  type Outcome,
  USER_BATCH,
} from '../shared/domain/keyrock-import.js';
import { APP_TABLES, type AppTable } from '../shared/keyrock/import-app-rows.js';
import {
  membershipFromRow,
  organizationFromRow,
  selectAll,
  TABLES,
  type Table,
  userFromRow,
} from '../shared/keyrock/import-rows.js';
import type { Db } from '../shared/store/db.js';
import { type AppCounts, type Count, importApplications, newCount } from './keyrock-import-apps.js';

/** A connection or schema problem: one line, exit 1, nothing written. */
export class ImportSourceError extends Error {
  override name = 'ImportSourceError';
}

/** What a summary line names: a Keyrock table, or `logo` for an application's image file. */
type Source = Table | AppTable | 'logo';

export interface ImportSummary extends AppCounts {
  source: string;
  dryRun: boolean;
  users: Count;
  organizations: Count;
  memberships: Count;
  /** Every record not written, with why. */
  skipped: { table: Source; id: string; reason: string }[];
  /** Records written with a change (a description cut, a website left out). */
  notes: { table: Source; id: string; note: string }[];
  /** What a Keyrock database holds that is deliberately not carried over. */
  notCarriedOver: string[];
}

/** The source without its password, for messages and the summary. */
function describe(url: URL): string {
  return `${url.protocol}//${url.username ? `${decodeURIComponent(url.username)}@` : ''}${url.host}${url.pathname}`;
}

function parseSource(from: string): URL {
  let url: URL;
  try {
    url = new URL(from);
  } catch {
    throw new ImportSourceError('--from must be a URL such as mysql://user:pass@host:3306/idm.');
  }
  if (url.protocol !== 'mysql:' && url.protocol !== 'mariadb:') {
    throw new ImportSourceError('--from must be a mysql:// URL.');
  }
  if (url.pathname.length <= 1) throw new ImportSourceError('--from must name the database (mysql://…/idm).');
  return url;
}

async function connect(url: URL): Promise<mysql.Connection> {
  try {
    return await mysql.createConnection({
      host: url.hostname,
      port: url.port ? Number(url.port) : 3306,
      user: decodeURIComponent(url.username),
      password: decodeURIComponent(url.password),
      database: decodeURIComponent(url.pathname.slice(1)),
      connectTimeout: 10_000,
      // Keyrock's dates are local DATETIMEs written by a UTC process.
      timezone: 'Z',
    });
  } catch (error) {
    throw new ImportSourceError(`cannot read ${describe(url)}: ${(error as Error).message}`);
  }
}

/**
 * Every table and column the import needs must be there before anything is written; answers
 * which `table.column`s the database has (optional columns of later Keyrock releases).
 */
async function checkSchema(conn: mysql.Connection, url: URL): Promise<Set<string>> {
  const [rows] = await conn.query<mysql.RowDataPacket[]>(
    'SELECT TABLE_NAME AS t, COLUMN_NAME AS c FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = DATABASE()',
  );
  const have = new Set(rows.map((r) => `${r.t}.${r.c}`));
  const required: [string, readonly string[]][] = [
    ...Object.entries(TABLES),
    ...Object.entries(APP_TABLES).map(([t, spec]): [string, readonly string[]] => [t, spec.required]),
  ];
  for (const [table, columns] of required) {
    const missing = columns.filter((c) => !have.has(`${table}.${c}`));
    if (missing.length > 0) {
      throw new ImportSourceError(
        `${describe(url)} is not a Keyrock 7/8 database: table ${table} lacks ${missing.join(', ')}.`,
      );
    }
  }
  return have;
}

async function readTable(conn: mysql.Connection, table: Table): Promise<Record<string, unknown>[]> {
  const [rows] = await conn.query<mysql.RowDataPacket[]>(selectAll(table));
  return rows;
}

/** One line per table on a terminal, rewritten in place; nothing when stderr is a file or pipe. */
function progress(label: string, total: number) {
  const tty = process.stderr.isTTY === true;
  let done = 0;
  const draw = () => {
    if (!tty) return;
    const width = 30;
    const filled = total === 0 ? width : Math.round((done / total) * width);
    process.stderr.write(
      `\r${label.padEnd(14)} [${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${done}/${total}`,
    );
  };
  draw();
  return {
    tick() {
      done++;
      if (done === total || done % 25 === 0) draw();
    },
    end() {
      if (tty) process.stderr.write('\n');
    },
  };
}

/**
 * Jwt secrets are sealed with the deployment's at-rest key (shared/domain/jwt-secrets.ts). Into a
 * deployed table (no DynamoDB endpoint of our own) the import must use the stack's key, or the
 * functions could not open what it wrote; a local key file would be silently wrong.
 */
function requireDeployedKey(dryRun: boolean): void {
  const c = config();
  if (dryRun || c.dynamodbEndpoint || c.atRestKeySecret) return;
  throw new ImportSourceError(
    'importing into a deployed table needs IDM_AT_REST_KEY_SECRET (the stack output AtRestKeySecretArn): application jwt secrets are sealed with that key.',
  );
}

export async function importKeyrock(
  db: Db,
  options: { from: string; dryRun: boolean; images?: string | undefined },
): Promise<ImportSummary> {
  const url = parseSource(options.from);
  requireDeployedKey(options.dryRun);
  const conn = await connect(url);
  const summary: ImportSummary = {
    source: describe(url),
    dryRun: options.dryRun,
    users: { read: 0, written: 0, skipped: 0 },
    organizations: { read: 0, written: 0, skipped: 0 },
    memberships: { read: 0, written: 0, skipped: 0 },
    applications: newCount(),
    logos: newCount(),
    roles: newCount(),
    permissions: newCount(),
    rolePermissions: newCount(),
    assignments: newCount(),
    consents: newCount(),
    pepProxies: newCount(),
    iotAgents: newCount(),
    trustedApplications: newCount(),
    skipped: [],
    notes: [],
    notCarriedOver: [
      'live access and refresh tokens and authorization codes: users sign in again',
      'Keyrock API tokens (X-Auth-Token): clients ask POST /v1/auth/tokens again',
      'Keyrock’s internal roles and permissions (idm_admin_app): Gatehouse’s built-in Provider and Purchaser hold the same rights',
      'XACML (xml) and payload (regex_*) permission rules',
    ],
  };
  const record = (table: Source, count: Count, id: string, outcome: Outcome) => {
    if (outcome.written) {
      count.written++;
      for (const note of outcome.notes ?? []) summary.notes.push({ table, id, note });
    } else {
      count.skipped++;
      summary.skipped.push({ table, id, reason: outcome.reason });
    }
  };
  try {
    let have: Set<string>;
    try {
      have = await checkSchema(conn, url);
    } catch (error) {
      if (error instanceof ImportSourceError) throw error;
      throw new ImportSourceError(`cannot read ${describe(url)}: ${(error as Error).message}`);
    }
    const [userRows, orgRows, memberRows] = await Promise.all([
      readTable(conn, 'user'),
      readTable(conn, 'organization'),
      readTable(conn, 'user_organization'),
    ]);

    // Users: those imported by an earlier run are found by their Keyrock ids, and kept.
    const users = await alreadyImported(
      db,
      'user',
      userRows.map((r) => String(r.id)),
    );
    const bar = progress('users', userRows.length);
    for (let from = 0; from < userRows.length; from += USER_BATCH) {
      const rows = userRows.slice(from, from + USER_BATCH).map((row) => {
        const id = String(row.id);
        return { id, mapped: userFromRow(row), done: users.get(id) };
      });
      const toWrite = rows.flatMap((r) => (r.mapped.ok && r.done === undefined ? [r.mapped.value] : []));
      const written = await importUsers(db, toWrite, options.dryRun);
      let w = 0;
      for (const { id, mapped, done } of rows) {
        summary.users.read++;
        const outcome: Outcome = !mapped.ok
          ? { written: false, reason: mapped.reason }
          : done !== undefined
            ? { written: false, reason: 'imported before', id: done }
            : written[w++]!;
        if (outcome.written) users.set(id, outcome.id);
        record('user', summary.users, id, outcome);
        bar.tick();
      }
    }
    bar.end();

    // Organizations, each created with an owner that was imported (Keyrock's owners first).
    const memberships = memberRows.map(membershipFromRow);
    const ownersOf = new Map<string, string[]>();
    for (const m of memberships) {
      if (!m.ok || m.value.role !== 'owner') continue;
      ownersOf.set(m.value.organizationId, [...(ownersOf.get(m.value.organizationId) ?? []), m.value.userId]);
    }
    const orgs = await alreadyImported(
      db,
      'organization',
      orgRows.map((r) => String(r.id)),
    );
    const orgBar = progress('organizations', orgRows.length);
    for (const row of orgRows) {
      summary.organizations.read++;
      const id = String(row.id);
      const mapped = organizationFromRow(row, ownersOf.get(id) ?? []);
      const done = orgs.get(id);
      const outcome: Outcome = !mapped.ok
        ? { written: false, reason: mapped.reason }
        : done !== undefined
          ? { written: false, reason: 'imported before', id: done }
          : await importOrganization(db, mapped.value, users, options.dryRun);
      if (outcome.written) orgs.set(id, outcome.id);
      record('organization', summary.organizations, id, outcome);
      orgBar.tick();
    }
    orgBar.end();

    // Memberships, owners first so no organization is ever left without one.
    const ordered = memberRows
      .map((row, i) => ({ row, m: memberships[i]! }))
      .sort(
        (a, b) => Number(b.m.ok && b.m.value.role === 'owner') - Number(a.m.ok && a.m.value.role === 'owner'),
      );
    const memberBar = progress('memberships', ordered.length);
    for (const { row, m } of ordered) {
      summary.memberships.read++;
      const id = `${String(row.organization_id)}/${String(row.user_id)}`;
      let outcome: Outcome;
      if (!m.ok) outcome = { written: false, reason: m.reason };
      else {
        const orgId = orgs.get(m.value.organizationId);
        const userId = users.get(m.value.userId);
        if (orgId === undefined) outcome = { written: false, reason: 'organization not imported' };
        else if (userId === undefined) outcome = { written: false, reason: 'user not imported' };
        else if (options.dryRun && orgId === 0) outcome = { written: true, id: 0 };
        else outcome = await importMembership(db, orgId, userId, m.value.role, options.dryRun);
      }
      record('user_organization', summary.memberships, id, outcome);
      memberBar.tick();
    }
    memberBar.end();

    await importApplications({
      conn,
      db,
      dryRun: options.dryRun,
      images: options.images,
      present: (column) => have.has(column),
      users,
      orgs,
      counts: summary,
      record,
      progress,
    });
    return summary;
  } finally {
    await conn.end().catch(() => undefined);
  }
}
