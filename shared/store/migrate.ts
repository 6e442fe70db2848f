import { heldBy, toRole } from './applications.js';
import type { Db } from './db.js';
import { idFrom, keys } from './keys.js';
import { batchGet, getItem, type Item, isConditionalFailure, queryPartition } from './ops.js';
import { toPermission } from './roles.js';
import { catalogueItem, orgRoleSets, permissionValue, SUMMARY_VERSION, scopeSet } from './summaries.js';

/**
 * Builds the lookups' summary items (store/summaries.ts) for applications created before they
 * existed, from the items they summarise, without stopping the service: every write to a
 * summary counts its `ver` up, and each summary is written only if its `ver` is still the one
 * read, so a change that lands meanwhile makes this application's pass start again. The
 * catalogue summary is marked complete last, after every organization's role set is right, so
 * readers trust the summaries only once all of them are.
 */
export interface MigrationReport {
  applications: number;
  catalogues: number;
  orgRoles: number;
  retries: number;
}

class Changed extends Error {}

const versionCondition = (current: Item | undefined) =>
  current
    ? { ConditionExpression: 'ver = :seen', ExpressionAttributeValues: { ':seen': Number(current.ver ?? 0) } }
    : { ConditionExpression: 'attribute_not_exists(PK)' };

async function guarded(write: Promise<unknown>): Promise<void> {
  try {
    await write;
  } catch (error) {
    if (isConditionalFailure(error)) throw new Changed();
    throw error;
  }
}

async function rebuildApplication(db: Db, appId: number, report: MigrationReport): Promise<void> {
  const items = await queryPartition(db, keys.appPartition(appId));
  const sk = (i: Item) => i.SK as string;
  // Each organization's three sets (store/summaries.ts): whole organization, members, owners.
  type Sets = Record<'all' | 'member' | 'owner', number[]>;
  const expected = new Map<number, Sets>();
  for (const i of items.filter((x) => sk(x).startsWith(keys.orgAuthorizationPrefix))) {
    const orgId = idFrom(sk(i), 1);
    const sets = expected.get(orgId) ?? { all: [], member: [], owner: [] };
    const set = scopeSet(heldBy(i));
    if (set) sets[set].push(i.roleId as number);
    expected.set(orgId, sets);
  }
  const current = new Map(
    items.filter((i) => sk(i).startsWith('ORGROLES#')).map((i) => [i.orgId as number, i]),
  );
  const text = (sets: Sets) => JSON.stringify([sets.all, sets.member, sets.owner].map((l) => [...l].sort()));
  for (const orgId of new Set([...expected.keys(), ...current.keys()])) {
    const want = expected.get(orgId) ?? { all: [], member: [], owner: [] };
    const have = current.get(orgId);
    if (have && text(orgRoleSets(have)) === text(want)) continue;
    const next = Number(have?.ver ?? 0) + 1;
    const { ConditionExpression, ExpressionAttributeValues } = versionCondition(have);
    const names = { all: 'roleIds', member: 'memberRoleIds', owner: 'ownerRoleIds' } as const;
    const kinds = ['all', 'member', 'owner'] as const;
    const set = kinds.filter((k) => want[k].length > 0);
    const remove = kinds.filter((k) => want[k].length === 0);
    await guarded(
      db.doc.update({
        TableName: db.table,
        Key: keys.orgRoles(appId, orgId),
        UpdateExpression: [
          `SET #t = :t, appId = :a, orgId = :o, ver = :next${set.map((k) => `, ${names[k]} = :${k}`).join('')}`,
          remove.length > 0 ? `REMOVE ${remove.map((k) => names[k]).join(', ')}` : '',
        ].join(' '),
        ConditionExpression,
        ExpressionAttributeNames: { '#t': 'type' },
        ExpressionAttributeValues: {
          ...ExpressionAttributeValues,
          ':t': 'orgRoles',
          ':a': appId,
          ':o': orgId,
          ':next': next,
          ...Object.fromEntries(set.map((k) => [`:${k}`, new Set(want[k])])),
        },
      }),
    );
    report.orgRoles++;
  }
  const summary = items.find((i) => sk(i) === keys.catalogue(appId).SK);
  if (summary?.v === SUMMARY_VERSION) return;
  const roles = items.filter((i) => sk(i).startsWith(keys.rolePrefix)).map(toRole);
  const item: Item = { ...catalogueItem(appId, roles), ver: Number(summary?.ver ?? 0) + 1 };
  for (const p of items.filter((i) => sk(i).startsWith(keys.permissionPrefix)).map(toPermission)) {
    item[`p${p.id}`] = permissionValue(p);
  }
  for (const i of items.filter((x) => sk(x).startsWith(keys.rolePermissionPrefix))) {
    const roleId = idFrom(sk(i), 1);
    const set = (item[`s${roleId}`] as Set<number> | undefined) ?? new Set<number>();
    item[`s${roleId}`] = set.add(idFrom(sk(i), 2));
  }
  await guarded(db.doc.put({ TableName: db.table, Item: item, ...versionCondition(summary) }));
  report.catalogues++;
}

/** Rebuilds every application's summaries: applications found by id (1 … the id counter), no Scan. */
export async function rebuildSummaries(db: Db): Promise<MigrationReport> {
  const report: MigrationReport = { applications: 0, catalogues: 0, orgRoles: 0, retries: 0 };
  const last = Number((await getItem(db, keys.counters(), true))?.app ?? 0);
  for (let from = 1; from <= last; from += 100) {
    const ids = Array.from({ length: Math.min(100, last - from + 1) }, (_, i) => from + i);
    const apps = await batchGet(db, ids.map(keys.application), true);
    for (const appId of apps.map((a) => a.id as number).sort((a, b) => a - b)) {
      for (let attempt = 1; ; attempt++) {
        try {
          await rebuildApplication(db, appId, report);
          break;
        } catch (error) {
          if (!(error instanceof Changed) || attempt >= 10) throw error;
          report.retries++;
        }
      }
      report.applications++;
    }
  }
  return report;
}
