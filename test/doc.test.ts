/**
 * The store's document layer (shared/store/doc.ts) against DynamoDB Local: native values in and
 * out of every operation the repositories use, errors as DynamoDB raises them. What DynamoDB Local
 * cannot be made to answer (unprocessed batch keys and items) is answered by a scripted endpoint.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { createDb, type Db } from '../shared/store/db.js';
import { GSI1 } from '../shared/store/keys.js';
import {
  batchGet,
  isConditionalFailure,
  queryAll,
  TransactionFailed,
  transact,
} from '../shared/store/ops.js';
import { ok, scriptedAws } from './support/scripted-aws.js';
import { testDb } from './support/service.js';

let db: Db;
beforeAll(async () => {
  db = await testDb();
});

const key = (pk: string, sk = 'X') => ({ PK: pk, SK: sk });

describe('document layer', () => {
  it('puts and gets every native type, numbers as numbers and sets as sets, undefined members dropped', async () => {
    const item = {
      ...key('DOC#types'),
      s: 'text',
      n: 42,
      f: 1.5,
      neg: -7,
      t: true,
      f0: false,
      nil: null,
      list: [1, 'two', { three: 3 }],
      map: { a: 1, b: { c: 'd' }, gone: undefined },
      ns: new Set([1, 2, 3]),
      ss: new Set(['a', 'b']),
      gone: undefined,
    };
    await db.doc.put({ TableName: db.table, Item: item });
    const out = await db.doc.get({ TableName: db.table, Key: key('DOC#types'), ConsistentRead: true });
    const { gone: _gone, map, ...rest } = item;
    expect(out.Item).toEqual({ ...rest, map: { a: 1, b: { c: 'd' } } });
    expect(out.Item).not.toHaveProperty('gone');
    expect(out.Item?.map).not.toHaveProperty('gone');
    expect(typeof out.Item?.n).toBe('number');
    expect(out.Item?.ns).toBeInstanceOf(Set);
  });

  it('answers a missing item with no Item at all', async () => {
    const out = await db.doc.get({ TableName: db.table, Key: key('DOC#none') });
    expect(out).not.toHaveProperty('Item');
    expect(out.$metadata.httpStatusCode).toBe(200);
  });

  it('marshals sets in ADD and DELETE to NS and SS, and returns the attributes asked for', async () => {
    const k = key('DOC#sets');
    await db.doc.put({ TableName: db.table, Item: { ...k, ids: new Set([1, 2]), tags: new Set(['x']) } });
    const added = await db.doc.update({
      TableName: db.table,
      Key: k,
      UpdateExpression: 'ADD ids :ids, tags :tags, hits :one',
      ExpressionAttributeValues: { ':ids': new Set([3]), ':tags': new Set(['y', 'z']), ':one': 1 },
      ReturnValues: 'UPDATED_NEW',
    });
    expect(added.Attributes).toEqual({ ids: new Set([1, 2, 3]), tags: new Set(['x', 'y', 'z']), hits: 1 });
    const removed = await db.doc.update({
      TableName: db.table,
      Key: k,
      UpdateExpression: 'DELETE ids :ids',
      ExpressionAttributeValues: { ':ids': new Set([1, 3]) },
      ReturnValues: 'ALL_NEW',
    });
    expect(removed.Attributes).toEqual({ ...k, ids: new Set([2]), tags: new Set(['x', 'y', 'z']), hits: 1 });
    const old = await db.doc.delete({ TableName: db.table, Key: k, ReturnValues: 'ALL_OLD' });
    expect(old.Attributes?.hits).toBe(1);
    const gone = await db.doc.delete({ TableName: db.table, Key: k, ReturnValues: 'ALL_OLD' });
    expect(gone).not.toHaveProperty('Attributes');
  });

  it('raises a failed condition as ConditionalCheckFailedException, values in the condition translated', async () => {
    const k = key('DOC#cond');
    await db.doc.put({ TableName: db.table, Item: { ...k, v: 1 } });
    const error = await db.doc
      .put({
        TableName: db.table,
        Item: { ...k, v: 2 },
        ConditionExpression: 'v = :expected',
        ExpressionAttributeValues: { ':expected': 5 },
      })
      .catch((e: unknown) => e);
    expect((error as Error).name).toBe('ConditionalCheckFailedException');
    expect(isConditionalFailure(error)).toBe(true);
    await db.doc.update({
      TableName: db.table,
      Key: k,
      UpdateExpression: 'SET v = :v',
      ConditionExpression: 'v = :expected',
      ExpressionAttributeValues: { ':v': 3, ':expected': 1 },
    });
    expect((await db.doc.get({ TableName: db.table, Key: k, ConsistentRead: true })).Item?.v).toBe(3);
  });

  it('pages a query and a scan with native LastEvaluatedKey and ExclusiveStartKey', async () => {
    const pk = 'DOC#page';
    await db.doc.batchWrite({
      RequestItems: {
        [db.table]: ['a', 'b', 'c', 'd', 'e'].map((sk, i) => ({
          PutRequest: { Item: { PK: pk, SK: sk, i, GSI1PK: 'DOC#pageidx', GSI1SK: `${4 - i}` } },
        })),
      },
    });
    const first = await db.doc.query({
      TableName: db.table,
      KeyConditionExpression: 'PK = :pk',
      ExpressionAttributeValues: { ':pk': pk },
      ConsistentRead: true,
      Limit: 2,
    });
    expect(first.Items?.map((i) => i.SK)).toEqual(['a', 'b']);
    expect(first.LastEvaluatedKey).toEqual({ PK: pk, SK: 'b' });
    const second = await db.doc.query({
      TableName: db.table,
      KeyConditionExpression: 'PK = :pk',
      ExpressionAttributeValues: { ':pk': pk },
      ConsistentRead: true,
      Limit: 2,
      ExclusiveStartKey: first.LastEvaluatedKey,
    });
    expect(second.Items?.map((i) => i.i)).toEqual([2, 3]);
    const all = await queryAll(db, {
      KeyConditionExpression: 'PK = :pk AND SK >= :from',
      ExpressionAttributeValues: { ':pk': pk, ':from': 'b' },
      ConsistentRead: true,
      Limit: 2,
    });
    expect(all.map((i) => i.SK)).toEqual(['b', 'c', 'd', 'e']);
    const byIndex = await queryAll(db, {
      IndexName: GSI1,
      KeyConditionExpression: 'GSI1PK = :pk',
      ExpressionAttributeValues: { ':pk': 'DOC#pageidx' },
    });
    expect(byIndex.map((i) => i.SK)).toEqual(['e', 'd', 'c', 'b', 'a']);

    const seen: string[] = [];
    let start: Record<string, unknown> | undefined;
    do {
      const page = await db.doc.scan({
        TableName: db.table,
        FilterExpression: 'PK = :pk',
        ExpressionAttributeValues: { ':pk': pk },
        Limit: 3,
        ExclusiveStartKey: start,
      });
      seen.push(...(page.Items ?? []).map((i) => i.SK as string));
      start = page.LastEvaluatedKey;
    } while (start);
    expect(seen.sort()).toEqual(['a', 'b', 'c', 'd', 'e']);
  });

  it('writes and deletes in one batch, and reads a batch back native', async () => {
    await db.doc.batchWrite({
      RequestItems: {
        [db.table]: [
          { PutRequest: { Item: { ...key('DOC#b1'), n: 1 } } },
          { PutRequest: { Item: { ...key('DOC#b2'), n: 2, s: new Set(['q']) } } },
          { PutRequest: { Item: { ...key('DOC#b3'), n: 3 } } },
        ],
      },
    });
    const out = await db.doc.batchWrite({
      RequestItems: { [db.table]: [{ DeleteRequest: { Key: key('DOC#b3') } }] },
    });
    expect(out.UnprocessedItems ?? {}).toEqual({});
    const got = await db.doc.batchGet({
      RequestItems: {
        [db.table]: { Keys: [key('DOC#b1'), key('DOC#b2'), key('DOC#b3')], ConsistentRead: true },
      },
    });
    const items = got.Responses?.[db.table] ?? [];
    expect(items.sort((a, b) => a.n - b.n)).toEqual([
      { ...key('DOC#b1'), n: 1 },
      { ...key('DOC#b2'), n: 2, s: new Set(['q']) },
    ]);
    expect(got.UnprocessedKeys ?? {}).toEqual({});
  });

  it('runs a transaction of every kind of item, and reports a failed condition per item', async () => {
    await db.doc.put({ TableName: db.table, Item: { ...key('DOC#t-check'), state: 'open' } });
    await db.doc.put({ TableName: db.table, Item: { ...key('DOC#t-del'), n: 1 } });
    await db.doc.put({ TableName: db.table, Item: { ...key('DOC#t-upd'), tags: new Set(['a']) } });
    await transact(db, [
      {
        ConditionCheck: {
          TableName: db.table,
          Key: key('DOC#t-check'),
          ConditionExpression: '#s = :open',
          ExpressionAttributeNames: { '#s': 'state' },
          ExpressionAttributeValues: { ':open': 'open' },
        },
      },
      {
        Put: {
          TableName: db.table,
          Item: { ...key('DOC#t-put'), n: 7, m: { deep: [1] } },
          ConditionExpression: 'attribute_not_exists(PK)',
        },
      },
      {
        Update: {
          TableName: db.table,
          Key: key('DOC#t-upd'),
          UpdateExpression: 'ADD tags :t SET n = :n',
          ExpressionAttributeValues: { ':t': new Set(['b']), ':n': 2 },
        },
      },
      {
        Delete: {
          TableName: db.table,
          Key: key('DOC#t-del'),
          ConditionExpression: 'n = :one',
          ExpressionAttributeValues: { ':one': 1 },
        },
      },
    ]);
    const read = (pk: string) =>
      db.doc.get({ TableName: db.table, Key: key(pk), ConsistentRead: true }).then((o) => o.Item);
    expect(await read('DOC#t-put')).toEqual({ ...key('DOC#t-put'), n: 7, m: { deep: [1] } });
    expect(await read('DOC#t-upd')).toEqual({ ...key('DOC#t-upd'), tags: new Set(['a', 'b']), n: 2 });
    expect(await read('DOC#t-del')).toBeUndefined();

    const raw = await db.doc
      .transactWrite({
        TransactItems: [
          { Put: { TableName: db.table, Item: { ...key('DOC#t-new') } } },
          {
            ConditionCheck: {
              TableName: db.table,
              Key: key('DOC#t-check'),
              ConditionExpression: '#s = :closed',
              ExpressionAttributeNames: { '#s': 'state' },
              ExpressionAttributeValues: { ':closed': 'closed' },
            },
          },
        ],
      })
      .catch((e: unknown) => e);
    expect((raw as Error).name).toBe('TransactionCanceledException');
    expect(
      (raw as { CancellationReasons?: { Code?: string }[] }).CancellationReasons?.map((r) => r.Code),
    ).toEqual(['None', 'ConditionalCheckFailed']);
    const failed = await transact(db, [
      {
        Put: { TableName: db.table, Item: key('DOC#t-put'), ConditionExpression: 'attribute_not_exists(PK)' },
      },
    ]).catch((e: unknown) => e);
    expect(failed).toBeInstanceOf(TransactionFailed);
    expect((failed as TransactionFailed).failedAt(0)).toBe(true);
    expect(await read('DOC#t-new')).toBeUndefined();
  });

  it('refuses class instances, as the document client was configured to', async () => {
    await expect(
      db.doc.put({ TableName: db.table, Item: { ...key('DOC#date'), at: new Date() } }),
    ).rejects.toThrow(/Unsupported type/);
  });
});

describe('document layer, unprocessed batch work (scripted endpoint)', () => {
  const offline = createDb({ table: 'unprocessed', endpoint: 'http://127.0.0.1:9' });

  it('retries unprocessed keys with their native form re-marshalled', async () => {
    const dynamo = scriptedAws(offline.doc.client);
    try {
      dynamo.on(
        'BatchGetItem',
        ok({
          Responses: { unprocessed: [{ PK: { S: 'A' }, SK: { S: 'X' }, n: { N: '1' } }] },
          UnprocessedKeys: {
            unprocessed: { Keys: [{ PK: { S: 'B' }, SK: { S: 'X' } }], ConsistentRead: true },
          },
        }),
        ok({ Responses: { unprocessed: [{ PK: { S: 'B' }, SK: { S: 'X' }, n: { N: '2' } }] } }),
      );
      const items = await batchGet(offline, [key('A'), key('B')], true);
      expect(items).toEqual([
        { ...key('A'), n: 1 },
        { ...key('B'), n: 2 },
      ]);
      const calls = dynamo.calls('BatchGetItem') as { RequestItems: Record<string, { Keys: unknown[] }> }[];
      expect(calls).toHaveLength(2);
      expect(calls[0]!.RequestItems.unprocessed?.Keys).toEqual([
        { PK: { S: 'A' }, SK: { S: 'X' } },
        { PK: { S: 'B' }, SK: { S: 'X' } },
      ]);
      expect(calls[1]!.RequestItems.unprocessed?.Keys).toEqual([{ PK: { S: 'B' }, SK: { S: 'X' } }]);
    } finally {
      dynamo.restore();
    }
  });

  it('answers unprocessed writes in native form, ready to be sent again', async () => {
    const dynamo = scriptedAws(offline.doc.client);
    try {
      dynamo.on(
        'BatchWriteItem',
        ok({
          UnprocessedItems: {
            unprocessed: [
              { PutRequest: { Item: { PK: { S: 'A' }, SK: { S: 'X' }, ns: { NS: ['1', '2'] } } } },
              { DeleteRequest: { Key: { PK: { S: 'B' }, SK: { S: 'X' } } } },
            ],
          },
        }),
      );
      const out = await offline.doc.batchWrite({
        RequestItems: {
          unprocessed: [
            { PutRequest: { Item: { ...key('A'), ns: new Set([1, 2]) } } },
            { DeleteRequest: { Key: key('B') } },
          ],
        },
      });
      expect(out.UnprocessedItems).toEqual({
        unprocessed: [
          { PutRequest: { Item: { ...key('A'), ns: new Set([1, 2]) } } },
          { DeleteRequest: { Key: key('B') } },
        ],
      });
      expect(dynamo.calls('BatchWriteItem')[0]!.RequestItems).toEqual({
        unprocessed: [
          { PutRequest: { Item: { PK: { S: 'A' }, SK: { S: 'X' }, ns: { NS: ['1', '2'] } } } },
          { DeleteRequest: { Key: { PK: { S: 'B' }, SK: { S: 'X' } } } },
        ],
      });
    } finally {
      dynamo.restore();
    }
  });
});
