/**
 * aws-sdk-client-mock answering the document client from a snapshot of the benchmark's table, so
 * handlers run their whole code path with no I/O: GetItem, BatchGetItem and Query (the key
 * conditions ops.ts builds) read the snapshot; writes succeed without changing it, except PutItem,
 * which stores its item (a code or token put during a request can be read back). Single-use
 * values therefore stay usable, which is what a throughput loop over one request needs.
 */
import {
  BatchGetCommand,
  BatchWriteCommand,
  DynamoDBDocumentClient,
  GetCommand,
  PutCommand,
  QueryCommand,
} from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import type { Item } from '../shared/store/ops.js';

type Key = { PK: string; SK: string };

const id = (k: { PK?: unknown; SK?: unknown }) => `${String(k.PK)}\u0000${String(k.SK)}`;

/** Parses the two key conditions ops.ts uses: `P = :pk` and `P = :pk AND begins_with(S, :prefix)`. */
export function parseKeyCondition(
  expression: string,
  values: Record<string, unknown>,
): { pkName: string; pk: string; skName?: string; prefix?: string } {
  const m = /^(\w+) = (:\w+)(?: AND begins_with\((\w+), (:\w+)\))?$/.exec(expression.trim());
  if (!m) throw new Error(`mock store: unsupported key condition "${expression}"`);
  return {
    pkName: m[1]!,
    pk: String(values[m[2]!]),
    ...(m[3] ? { skName: m[3], prefix: String(values[m[4]!]) } : {}),
  };
}

export function mockFromSnapshot(items: Item[], table: string): { restore(): void } {
  const store = new Map(items.map((i) => [id(i), i]));
  // Base-table queries read one partition, as DynamoDB does; index queries filter everything.
  const partitions = new Map<string, Item[]>();
  const addToPartition = (i: Item) => {
    const list = partitions.get(String(i.PK)) ?? [];
    partitions.set(String(i.PK), [...list.filter((x) => x.SK !== i.SK), i]);
  };
  for (const i of items) addToPartition(i);
  const byCode = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
  // Partitions are kept sorted by sort key, as DynamoDB returns them.
  for (const list of partitions.values()) list.sort((a, b) => byCode(String(a.SK), String(b.SK)));

  const get = (input: { Key: Key }) => {
    const item = store.get(id(input.Key));
    return item ? { Item: structuredClone(item) } : {};
  };
  const batchGet = (input: { RequestItems: Record<string, { Keys: Key[] }> }) => {
    const keys = input.RequestItems[table]?.Keys ?? [];
    const found = keys.map((k) => store.get(id(k))).filter((i): i is Item => i !== undefined);
    return { Responses: { [table]: found.map((i) => structuredClone(i)) }, UnprocessedKeys: {} };
  };
  const query = (input: {
    KeyConditionExpression: string;
    ExpressionAttributeValues: Record<string, unknown>;
    IndexName?: string;
  }) => {
    const c = parseKeyCondition(input.KeyConditionExpression, input.ExpressionAttributeValues);
    const sortName = c.skName ?? (input.IndexName ? 'GSI1SK' : 'SK');
    const base = c.pkName === 'PK';
    const candidates = base ? (partitions.get(c.pk) ?? []) : [...store.values()];
    const found = candidates.filter(
      (i) =>
        i[c.pkName] === c.pk && (c.prefix === undefined || String(i[sortName] ?? '').startsWith(c.prefix)),
    );
    if (!base) found.sort((a, b) => byCode(String(a[sortName]), String(b[sortName])));
    return { Items: found.map((i) => structuredClone(i)), Count: found.length };
  };
  const put = (input: { Item: Item }) => {
    store.set(id(input.Item), input.Item);
    addToPartition(input.Item);
    partitions.get(String(input.Item.PK))!.sort((a, b) => byCode(String(a.SK), String(b.SK)));
    return {};
  };
  // One fake on the mock's send stub, dispatching on the command's class: with one `.on(Command)`
  // behaviour per command, aws-sdk-client-mock matches every call against each (sinon's deep
  // equality), which cost more CPU than the handlers under test.
  const answers = new Map<unknown, (input: never) => unknown>([
    [GetCommand, get],
    [BatchGetCommand, batchGet],
    [QueryCommand, query],
    [PutCommand, put],
    [BatchWriteCommand, () => ({ UnprocessedItems: {} })],
  ]);
  const mock = mockClient(DynamoDBDocumentClient);
  let calls = 0;
  const fake = async (command: { constructor: unknown; input: unknown }) => {
    // sinon records every call; forgetting them (outside the call, as sinon requires) keeps its
    // history from growing into garbage-collector work.
    if (++calls % 256 === 0) setImmediate(() => mock.send.resetHistory());
    const answer = answers.get(command.constructor);
    // UpdateItem, DeleteItem, TransactWriteItems: accepted, the snapshot stays as it is.
    return answer ? answer(command.input as never) : {};
  };
  mock.send.callsFake(fake as unknown as Parameters<typeof mock.send.callsFake>[0]);
  return { restore: () => mock.restore() };
}
