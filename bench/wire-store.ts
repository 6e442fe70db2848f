/**
 * The same canned answers as mock-store.ts, one layer lower: a request handler in place of the
 * HTTP client, so the whole SDK stack runs (document marshalling, JSON serialisation, endpoint
 * resolution, SigV4 signing, retries, response parsing) and only the network is gone. Together
 * with the aws-sdk-client-mock figures it shows what the SDK's own work costs per request.
 * Queries are answered in DynamoDB's order (sort keys by code unit, not by the locale).
 */
import { marshall, unmarshall } from '@aws-sdk/util-dynamodb';
import type { Db } from '../shared/store/db.js';
import type { Item } from '../shared/store/ops.js';
import { byCode, parseKeyCondition, sortKeyMatches } from './mock-store.js';

type Wire = Record<string, Record<string, unknown>>;

const S = (value: unknown) => (value as { S?: string } | undefined)?.S;
const id = (k: Wire) => `${S(k.PK)}\u0000${S(k.SK)}`;

interface FakeRequest {
  headers: Record<string, string>;
  body?: string | Uint8Array;
}

export function wireFromSnapshot(items: Item[], db: Db): { restore(): void } {
  const store = new Map<string, Wire>();
  const partitions = new Map<string, Wire[]>();
  const put = (item: Wire) => {
    store.set(id(item), item);
    const list = (partitions.get(S(item.PK)!) ?? []).filter((x) => S(x.SK) !== S(item.SK));
    partitions.set(S(item.PK)!, [...list, item]);
  };
  for (const i of items) put(marshall(i, { removeUndefinedValues: true }) as unknown as Wire);

  const answer = (operation: string, input: Record<string, unknown>): unknown => {
    switch (operation) {
      case 'GetItem': {
        const item = store.get(id(input.Key as Wire));
        return item ? { Item: item } : {};
      }
      case 'BatchGetItem': {
        const request = input.RequestItems as Record<string, { Keys: Wire[] }>;
        const found = (request[db.table]?.Keys ?? []).map((k) => store.get(id(k))).filter(Boolean);
        return { Responses: { [db.table]: found }, UnprocessedKeys: {} };
      }
      case 'Query': {
        const values = unmarshall(input.ExpressionAttributeValues as Parameters<typeof unmarshall>[0]);
        const c = parseKeyCondition(String(input.KeyConditionExpression), values);
        const sortName = c.skName ?? (input.IndexName ? 'GSI1SK' : 'SK');
        const candidates = c.pkName === 'PK' ? (partitions.get(c.pk) ?? []) : [...store.values()];
        const found = candidates
          .filter((i) => S(i[c.pkName]) === c.pk && sortKeyMatches(c, S(i[sortName])))
          .sort((a, b) => byCode(S(a[sortName]) ?? '', S(b[sortName]) ?? ''));
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
        throw new Error(`wire store: no canned answer for ${operation}`);
    }
  };

  const config = db.doc.config as unknown as { requestHandler: unknown };
  const original = config.requestHandler;
  config.requestHandler = {
    handle: async (request: FakeRequest) => {
      const operation = String(request.headers['x-amz-target'] ?? '').split('.')[1] ?? '';
      const text =
        typeof request.body === 'string'
          ? request.body
          : new TextDecoder().decode(request.body ?? new Uint8Array());
      const body = Buffer.from(JSON.stringify(answer(operation, JSON.parse(text || '{}'))));
      return {
        response: {
          statusCode: 200,
          reason: 'OK',
          headers: { 'content-type': 'application/x-amz-json-1.0', 'content-length': String(body.length) },
          body: new Uint8Array(body),
        },
      };
    },
    updateHttpClientConfig: () => undefined,
    httpHandlerConfigs: () => ({}),
    destroy: () => undefined,
  };
  return {
    restore: () => {
      config.requestHandler = original;
    },
  };
}
