/**
 * aws-sdk-client-mock answering the document client from a snapshot of the benchmark's table, so
 * handlers run their whole code path with no I/O: GetItem, BatchGetItem and Query (the key
 * conditions ops.ts builds) read the snapshot; writes succeed without changing it, except PutItem,
 * which stores its item (a code or token put during a request can be read back). Single-use
 * values therefore stay usable, which is what a throughput loop over one request needs. A command
 * it has no answer for throws, so a new kind of read fails the request instead of finding nothing.
 */
import {
  BatchGetCommand,
  BatchWriteCommand,
  DeleteCommand,
  DynamoDBDocumentClient,
  GetCommand,
  PutCommand,
  QueryCommand,
  TransactWriteCommand,
  UpdateCommand,
} from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import type { Item } from '../shared/store/ops.js';

type Key = { PK: string; SK: string };

const id = (k: { PK?: unknown; SK?: unknown }) => `${String(k.PK)}\u0000${String(k.SK)}`;

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

export function mockFromSnapshot(items: Item[], table: string): { restore(): void } {
  const store = new Map(items.map((i) => [id(i), i]));
  // Base-table queries read one partition, as DynamoDB does; index queries filter everything.
  const partitions = new Map<string, Item[]>();
  const addToPartition = (i: Item) => {
    const list = partitions.get(String(i.PK)) ?? [];
    partitions.set(String(i.PK), [...list.filter((x) => x.SK !== i.SK), i]);
  };
  for (const i of items) addToPartition(i);
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
      (i) => i[c.pkName] === c.pk && sortKeyMatches(c, i[sortName] as string | undefined),
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
    // Accepted, the snapshot stays as it is (codes and refresh tokens stay usable).
    [UpdateCommand, () => ({})],
    [DeleteCommand, () => ({})],
    [TransactWriteCommand, () => ({})],
  ]);
  const mock = mockClient(DynamoDBDocumentClient);
  let calls = 0;
  const fake = async (command: { constructor: unknown; input: unknown }) => {
    // sinon records every call; forgetting them (outside the call, as sinon requires) keeps its
    // history from growing into garbage-collector work.
    if (++calls % 256 === 0) setImmediate(() => mock.send.resetHistory());
    const answer = answers.get(command.constructor);
    if (!answer) {
      throw new Error(`mock store: no canned answer for ${(command.constructor as { name?: string }).name}`);
    }
    return answer(command.input as never);
  };
  mock.send.callsFake(fake as unknown as Parameters<typeof mock.send.callsFake>[0]);
  return { restore: () => mock.restore() };
}
