/**
 * An interceptor on the store's DynamoDB client answering from a snapshot of the benchmark's
 * table, so handlers run their whole code path, the store's document layer (shared/store/doc.ts) with its
 * marshalling included, with no I/O: GetItem, BatchGetItem and Query (the key conditions ops.ts
 * builds) read the snapshot; writes succeed without changing it, except PutItem, which stores its
 * item (a code or token put during a request can be read back). Single-use values therefore stay
 * usable, which is what a throughput loop over one request needs. A command it has no answer for
 * throws, so a new kind of read fails the request instead of finding nothing. The answers are in
 * DynamoDB's wire form, the same ones wire-store.ts serves one layer lower.
 */
import { marshall, unmarshall } from '@aws-sdk/util-dynamodb';
import type { Json } from '../shared/store/aws-json.js';
import type { Db } from '../shared/store/db.js';
import type { Item } from '../shared/store/ops.js';

export interface KeyCondition {
  pkName: string;
  pk: string;
  skName?: string;
  /** `begins_with(S, :prefix)` */
  prefix?: string;
  /** `S >= :from` (a range of the partition, e.g. the role catalogue from PERM#) */
  from?: string;
}

/**
 * Parses the key conditions ops.ts builds: `P = :pk`, `P = :pk AND begins_with(S, :prefix)` and
 * `P = :pk AND S >= :from`. Any other throws: a read the canned stores cannot answer must fail
 * the request (and so the benchmark), not answer it with nothing.
 */
export function parseKeyCondition(expression: string, values: Record<string, unknown>): KeyCondition {
  const text = expression.trim();
  const prefixed = /^(\w+) = (:\w+)(?: AND begins_with\((\w+), (:\w+)\))?$/.exec(text);
  if (prefixed) {
    return {
      pkName: prefixed[1]!,
      pk: String(values[prefixed[2]!]),
      ...(prefixed[3] ? { skName: prefixed[3], prefix: String(values[prefixed[4]!]) } : {}),
    };
  }
  const range = /^(\w+) = (:\w+) AND (\w+) >= (:\w+)$/.exec(text);
  if (range) {
    return {
      pkName: range[1]!,
      pk: String(values[range[2]!]),
      skName: range[3]!,
      from: String(values[range[4]!]),
    };
  }
  throw new Error(`mock store: unsupported key condition "${expression}"`);
}

/** DynamoDB orders string sort keys by their bytes: code-unit order, not the locale's. */
export const byCode = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** Whether a sort-key value meets the condition's sort-key part (true when it has none). */
export function sortKeyMatches(c: KeyCondition, value: string | undefined): boolean {
  if (c.prefix !== undefined) return (value ?? '').startsWith(c.prefix);
  if (c.from !== undefined) return value !== undefined && value >= c.from;
  return true;
}

/** An item, key or expression-value map in DynamoDB's wire form. */
type Wire = Record<string, Record<string, unknown>>;

const S = (value: unknown) => (value as { S?: string } | undefined)?.S;
const wireId = (k: Wire) => `${S(k.PK)}\u0000${S(k.SK)}`;

/**
 * The snapshot as a table answering DynamoDB operations by name ('GetItem', 'Query', ...), wire
 * form in and out. Base-table queries read one partition, kept sorted by sort key as DynamoDB
 * returns them (code-unit order); index queries filter everything and sort.
 */
export function cannedTable(
  items: Item[],
  table: string,
): (operation: string, input: Record<string, unknown>) => unknown {
  const store = new Map<string, Wire>();
  const partitions = new Map<string, Wire[]>();
  const put = (item: Wire) => {
    store.set(wireId(item), item);
    const list = (partitions.get(S(item.PK)!) ?? []).filter((x) => S(x.SK) !== S(item.SK));
    list.push(item);
    list.sort((a, b) => byCode(S(a.SK) ?? '', S(b.SK) ?? ''));
    partitions.set(S(item.PK)!, list);
  };
  for (const i of items) put(marshall(i, { removeUndefinedValues: true }) as unknown as Wire);

  // Stored items are handed out as they are: the document layer unmarshals them into new objects
  // and the wire store serialises them, so no caller can change the snapshot through an answer.
  return (operation, input) => {
    switch (operation) {
      case 'GetItem': {
        const item = store.get(wireId(input.Key as Wire));
        return item ? { Item: item } : {};
      }
      case 'BatchGetItem': {
        const request = input.RequestItems as Record<string, { Keys: Wire[] }>;
        const found = (request[table]?.Keys ?? []).map((k) => store.get(wireId(k))).filter(Boolean);
        return { Responses: { [table]: found }, UnprocessedKeys: {} };
      }
      case 'Query': {
        const values = unmarshall(input.ExpressionAttributeValues as Parameters<typeof unmarshall>[0]);
        const c = parseKeyCondition(String(input.KeyConditionExpression), values);
        const sortName = c.skName ?? (input.IndexName ? 'GSI1SK' : 'SK');
        const base = c.pkName === 'PK';
        const candidates = base ? (partitions.get(c.pk) ?? []) : [...store.values()];
        const found = candidates.filter((i) => S(i[c.pkName]) === c.pk && sortKeyMatches(c, S(i[sortName])));
        if (!base) found.sort((a, b) => byCode(S(a[sortName]) ?? '', S(b[sortName]) ?? ''));
        return { Items: found, Count: found.length, ScannedCount: found.length };
      }
      case 'PutItem':
        put(input.Item as Wire);
        return {};
      case 'BatchWriteItem':
        return { UnprocessedItems: {} };
      case 'UpdateItem':
      case 'DeleteItem':
      case 'TransactWriteItems':
        // Accepted, the snapshot stays as it is (codes and refresh tokens stay usable).
        return {};
      default:
        // A read it cannot answer fails the request rather than finding nothing.
        throw new Error(`canned table: no answer for ${operation}`);
    }
  };
}

export function mockFromSnapshot(items: Item[], db: Db): { restore(): void } {
  const answer = cannedTable(items, db.table);
  // An interceptor that never calls on: the answer comes back in wire form, as DynamoDB's would,
  // and the document layer unmarshals it; no JSON, signing or network.
  const remove = db.doc.client.use(async (operation, input) => answer(operation, input) as Json);
  return { restore: remove };
}
