import type { Db } from './db.js';
import { type KeyrockKind, keys } from './keys.js';
import { batchGet, findItem } from './ops.js';

/** A Keyrock id to keep with a record created by `idm import keyrock` (pattern 22). */
export interface KeyrockAlias {
  kind: KeyrockKind;
  keyrockId: string;
}

/**
 * The Put that claims a Keyrock id for a new record, for the record's own transaction: it fails
 * when the id was imported before, so nothing is created twice.
 */
export function aliasPut(db: Db, alias: KeyrockAlias, id: number) {
  return {
    Put: {
      TableName: db.table,
      Item: { ...keys.keyrockAlias(alias.kind, alias.keyrockId), type: 'keyrock-alias', id },
      ConditionExpression: 'attribute_not_exists(PK)',
    },
  };
}

/** The Gatehouse ids of Keyrock ids already imported, in BatchGetItems of 100. */
export async function importedIds(
  db: Db,
  kind: KeyrockKind,
  keyrockIds: string[],
): Promise<Map<string, number>> {
  const unique = [...new Set(keyrockIds)];
  const items =
    unique.length > 0
      ? await batchGet(
          db,
          unique.map((k) => keys.keyrockAlias(kind, k)),
          true,
        )
      : [];
  const out = new Map<string, number>();
  for (const k of unique) {
    const item = findItem(items, keys.keyrockAlias(kind, k));
    if (item) out.set(k, item.id as number);
  }
  return out;
}
