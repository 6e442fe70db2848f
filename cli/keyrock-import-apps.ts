/**
 * The second half of `idm import keyrock`: applications (with their client ids and secrets and,
 * with `--images`, their logos), roles, permissions, role–permission switches, role assignments
 * and consents, after the users and organizations they refer to. Each table is read whole, then
 * written record by record through shared/domain/keyrock-import-apps.ts; every write is keyed by
 * what it moves, so running again, or again after an interruption, writes only what is missing.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type mysql from 'mysql2/promise';
import { alreadyImported, type Outcome } from '../shared/domain/keyrock-import.js';
import {
  type ApplicationState,
  applicationOwner,
  applicationState,
  heldKey,
  importAgent,
  importApplication,
  importAssignment,
  importConsent,
  importedApplication,
  importLogo,
  importPermission,
  importRole,
  importRolePermission,
  importTrusted,
} from '../shared/domain/keyrock-import-apps.js';
import {
  type AppTable,
  agentFromRow,
  applicationFromRow,
  assignmentFromRow,
  consentFromRow,
  IMAGE_FILE,
  isBuiltInRole,
  permissionFromRow,
  roleFromRow,
  rolePermissionFromRow,
  selectApp,
  trustedFromRow,
} from '../shared/keyrock/import-app-rows.js';
import type { Grantee } from '../shared/model.js';
import type { Owner } from '../shared/store/applications.js';
import type { Db } from '../shared/store/db.js';

export interface Count {
  read: number;
  written: number;
  skipped: number;
}

export const newCount = (): Count => ({ read: 0, written: 0, skipped: 0 });

export interface AppCounts {
  applications: Count;
  logos: Count;
  roles: Count;
  permissions: Count;
  rolePermissions: Count;
  assignments: Count;
  consents: Count;
  pepProxies: Count;
  iotAgents: Count;
  trustedApplications: Count;
}

export interface AppImportContext {
  conn: mysql.Connection;
  db: Db;
  dryRun: boolean;
  /** Keyrock's public/img/applications directory, when given. */
  images: string | undefined;
  /** Whether the database has `table.column` (optional columns of later Keyrock releases). */
  present: (column: string) => boolean;
  /** Keyrock id → Gatehouse id (0 for a record a dry run would write). */
  users: Map<string, number>;
  orgs: Map<string, number>;
  counts: AppCounts;
  record(table: AppTable | 'logo', count: Count, id: string, outcome: Outcome): void;
  progress(label: string, total: number): { tick(): void; end(): void };
}

async function rows(conn: mysql.Connection, sql: string): Promise<Record<string, unknown>[]> {
  const [out] = await conn.query<mysql.RowDataPacket[]>(sql);
  return out;
}

/**
 * Runs `each` over the rows with a progress line, counting each row as read, `parallel` at a
 * time. Rows whose writes share an item (an application's catalogue summary) go one by one, so
 * their transactions do not cancel each other; the per-user grants and consents in parallel.
 */
async function loop<T>(
  ctx: AppImportContext,
  label: string,
  list: T[],
  count: Count,
  each: (item: T) => Promise<void>,
  parallel = 1,
): Promise<void> {
  const bar = ctx.progress(label, list.length);
  let next = 0;
  const worker = async () => {
    while (next < list.length) {
      const item = list[next++]!;
      count.read++;
      await each(item);
      bar.tick();
    }
  };
  await Promise.all(Array.from({ length: Math.min(parallel, list.length) }, worker));
  bar.end();
}

/** DynamoDB requests in flight for the independent rows (a few per connection of the SDK's pool). */
const PARALLEL = 8;

const skip = (reason: string): Outcome => ({ written: false, reason });

export async function importApplications(ctx: AppImportContext): Promise<void> {
  const { conn, db, dryRun, counts } = ctx;
  const select = (table: AppTable) => rows(conn, selectApp(table, ctx.present));
  const [
    clientRows,
    roleRows,
    permissionRows,
    switchRows,
    assignmentRows,
    consentRows,
    pepRows,
    iotRows,
    trustRows,
  ] = await Promise.all([
    select('oauth_client'),
    select('role'),
    select('permission'),
    select('role_permission'),
    select('role_assignment'),
    select('user_authorized_application'),
    select('pep_proxy'),
    select('iot'),
    select('trusted_application'),
  ]);
  const assignments = assignmentRows.map((row) => ({ row, a: assignmentFromRow(row) }));

  // Applications, each owned by the first imported holder of Keyrock's Provider role in it.
  const providers = new Map<string, { kind: 'user' | 'org'; keyrockId: string }[]>();
  for (const { a } of assignments) {
    if (!a.ok || a.value.roleId !== 'provider') continue;
    const list = providers.get(a.value.clientId) ?? [];
    if (a.value.grantee.kind === 'user' || a.value.grantee.as === 'member') list.push(a.value.grantee);
    providers.set(a.value.clientId, list);
  }
  const apps = new Map<string, number>();
  const images = new Map<string, string>();
  await loop(ctx, 'applications', clientRows, counts.applications, async (row) => {
    const id = String(row.id);
    const mapped = applicationFromRow(row);
    let outcome: Outcome;
    if (!mapped.ok) outcome = skip(mapped.reason);
    else {
      const before = await importedApplication(db, mapped.value.clientId);
      if (before !== undefined) outcome = { written: false, reason: 'imported before', id: before };
      else {
        const candidates = (providers.get(id) ?? [])
          .map((g): Grantee | undefined => {
            const gid = (g.kind === 'user' ? ctx.users : ctx.orgs).get(g.keyrockId);
            return gid === undefined ? undefined : { kind: g.kind, id: gid };
          })
          .filter((g): g is Grantee => g !== undefined)
          .sort((x, y) => Number(x.kind === 'org') - Number(y.kind === 'org'));
        // A dry run has not written the users it would write (id 0): any of them would do.
        const owner: Owner | undefined =
          dryRun && candidates.some((g) => g.id === 0)
            ? { kind: 'user', userId: 0, actorId: 0 }
            : await applicationOwner(db, candidates);
        outcome = await importApplication(db, { ...mapped.value, owner }, dryRun);
        if (outcome.written) outcome.notes = mapped.value.notes;
      }
      if (outcome.id !== undefined) apps.set(id, outcome.id);
      if (mapped.value.image) images.set(id, mapped.value.image);
    }
    ctx.record('oauth_client', counts.applications, id, outcome);
  });

  // Logos: Keyrock keeps each application's image as a file of its public/img/applications/.
  await loop(ctx, 'logos', [...images], counts.logos, async ([clientId, file]) => {
    const appId = apps.get(clientId)!;
    let outcome: Outcome;
    if (!ctx.images) outcome = skip('no --images directory given (Keyrock’s public/img/applications)');
    else if (!IMAGE_FILE.test(file)) outcome = skip(`image "${file}" is not a file name`);
    else {
      let bytes: Buffer | undefined;
      try {
        bytes = await readFile(join(ctx.images, file));
      } catch {
        bytes = undefined;
      }
      outcome = bytes
        ? await importLogo(db, appId, bytes, dryRun)
        : skip(`no file ${file} in the --images directory`);
    }
    ctx.record('logo', counts.logos, clientId, outcome);
  });

  // Roles and permissions of each application's own, each claiming its Keyrock id.
  const roles = await alreadyImported(
    db,
    'role',
    roleRows.map((r) => String(r.id)),
  );
  const roleApp = new Map<string, string>();
  await loop(ctx, 'roles', roleRows, counts.roles, async (row) => {
    const id = String(row.id);
    const mapped = roleFromRow(row);
    let outcome: Outcome;
    if (!mapped.ok) outcome = skip(mapped.reason);
    else {
      roleApp.set(id, mapped.value.clientId);
      const appId = apps.get(mapped.value.clientId);
      const done = roles.get(id);
      if (appId === undefined) outcome = skip('application not imported');
      else if (done !== undefined) outcome = { written: false, reason: 'imported before', id: done };
      else {
        outcome = await importRole(db, appId, id, mapped.value.name, dryRun);
        if (outcome.written) outcome.notes = mapped.value.notes;
      }
      if (outcome.id !== undefined) roles.set(id, outcome.id);
    }
    ctx.record('role', counts.roles, id, outcome);
  });

  const permissions = await alreadyImported(
    db,
    'permission',
    permissionRows.map((r) => String(r.id)),
  );
  const permissionApp = new Map<string, string>();
  await loop(ctx, 'permissions', permissionRows, counts.permissions, async (row) => {
    const id = String(row.id);
    const mapped = permissionFromRow(row);
    let outcome: Outcome;
    if (!mapped.ok) outcome = skip(mapped.reason);
    else {
      permissionApp.set(id, mapped.value.clientId);
      const appId = apps.get(mapped.value.clientId);
      const done = permissions.get(id);
      if (appId === undefined) outcome = skip('application not imported');
      else if (done !== undefined) outcome = { written: false, reason: 'imported before', id: done };
      else {
        outcome = await importPermission(db, appId, id, mapped.value.fields, dryRun);
        if (outcome.written) outcome.notes = mapped.value.notes;
      }
      if (outcome.id !== undefined) permissions.set(id, outcome.id);
    }
    ctx.record('permission', counts.permissions, id, outcome);
  });

  // What is there already, per application: built-in role ids, switches, grants (read once).
  // The promise is kept, so rows handled in parallel share one read and one state.
  const states = new Map<number, Promise<ApplicationState>>();
  const stateOf = (appId: number) => {
    let state = states.get(appId);
    if (!state) {
      state = applicationState(db, appId);
      states.set(appId, state);
    }
    return state;
  };

  await loop(ctx, 'role perms', switchRows, counts.rolePermissions, async (row) => {
    const id = String(row.id);
    const mapped = rolePermissionFromRow(row);
    let outcome: Outcome;
    if (!mapped.ok) outcome = skip(mapped.reason);
    else {
      const { roleId, permissionId } = mapped.value;
      const clientId = roleApp.get(roleId);
      const appId = clientId === undefined ? undefined : apps.get(clientId);
      const gRole = roles.get(roleId);
      const gPermission = permissions.get(permissionId);
      if (appId === undefined || gRole === undefined) outcome = skip('role not imported');
      else if (gPermission === undefined) outcome = skip('permission not imported');
      else if (permissionApp.get(permissionId) !== clientId)
        outcome = skip('role and permission belong to different applications');
      else {
        const state = await stateOf(appId);
        const on = state.switches.get(gRole)?.has(gPermission) === true;
        outcome = await importRolePermission(db, appId, gRole, gPermission, on, dryRun);
        // A dry run's new records all have id 0: remembering them would hide the next ones.
        if (outcome.written && !dryRun)
          state.switches.set(gRole, (state.switches.get(gRole) ?? new Set()).add(gPermission));
      }
    }
    ctx.record('role_permission', counts.rolePermissions, id, outcome);
  });

  await loop(
    ctx,
    'assignments',
    assignments,
    counts.assignments,
    async ({ row, a }) => {
      const id = String(row.id);
      let outcome: Outcome;
      if (!a.ok) outcome = skip(a.reason);
      else {
        const { clientId, roleId, grantee } = a.value;
        const appId = apps.get(clientId);
        if (appId === undefined) outcome = skip('application not imported');
        else {
          const state = await stateOf(appId);
          const gRole = isBuiltInRole(roleId)
            ? dryRun && appId === 0
              ? 0
              : state.builtIn.get(roleId)
            : roleApp.get(roleId) === clientId
              ? roles.get(roleId)
              : undefined;
          let target: Grantee | undefined;
          let missing = '';
          if (grantee.kind === 'user') {
            const user = ctx.users.get(grantee.keyrockId);
            if (user === undefined) missing = 'user not imported';
            else target = { kind: 'user', id: user };
          } else {
            // Keyrock gives a role to an organization's members or to its owners; so does Gatehouse.
            const org = ctx.orgs.get(grantee.keyrockId);
            if (org === undefined) missing = 'organization not imported';
            else target = { kind: 'org', id: org };
          }
          if (gRole === undefined) outcome = skip('role not imported');
          else if (missing || !target) outcome = skip(missing);
          else {
            const holder = grantee.kind === 'org' ? grantee.as : undefined;
            const key = heldKey(target, gRole, holder);
            outcome = await importAssignment(db, appId, target, gRole, state.held.has(key), dryRun, holder);
            if (outcome.written && !dryRun) state.held.add(key);
          }
        }
      }
      ctx.record('role_assignment', counts.assignments, id, outcome);
    },
    PARALLEL,
  );

  await loop(
    ctx,
    'consents',
    consentRows,
    counts.consents,
    async (row) => {
      const id = String(row.id);
      const mapped = consentFromRow(row);
      let outcome: Outcome;
      if (!mapped.ok) outcome = skip(mapped.reason);
      else {
        const appId = apps.get(mapped.value.clientId);
        const userId = ctx.users.get(mapped.value.userId);
        if (appId === undefined) outcome = skip('application not imported');
        else if (userId === undefined) outcome = skip('user not imported');
        else outcome = await importConsent(db, userId, appId, mapped.value.approvedAt, dryRun);
      }
      ctx.record('user_authorized_application', counts.consents, id, outcome);
    },
    PARALLEL,
  );

  // PEP proxies and IoT agents keep their ids and Keyrock password hashes (upgraded on sign-in).
  for (const [kind, table, list, count] of [
    ['pep', 'pep_proxy', pepRows, counts.pepProxies],
    ['iot', 'iot', iotRows, counts.iotAgents],
  ] as const) {
    await loop(ctx, kind === 'pep' ? 'pep proxies' : 'iot agents', list, count, async (row) => {
      const id = String(row.id);
      const mapped = agentFromRow(row);
      let outcome: Outcome;
      if (!mapped.ok) outcome = skip(mapped.reason);
      else {
        const appId = apps.get(mapped.value.clientId);
        outcome =
          appId === undefined
            ? skip('application not imported')
            : await importAgent(db, kind, { ...mapped.value, appId }, dryRun);
      }
      ctx.record(table, count, id, outcome);
    });
  }

  await loop(ctx, 'trusted apps', trustRows, counts.trustedApplications, async (row) => {
    const id = String(row.id);
    const mapped = trustedFromRow(row);
    let outcome: Outcome;
    if (!mapped.ok) outcome = skip(mapped.reason);
    else if (!apps.has(mapped.value.clientId)) outcome = skip('application not imported');
    else if (!apps.has(mapped.value.trustedClientId)) outcome = skip('trusted application not imported');
    else outcome = await importTrusted(db, mapped.value.clientId, mapped.value.trustedClientId, dryRun);
    ctx.record('trusted_application', counts.trustedApplications, id, outcome);
  });
}
