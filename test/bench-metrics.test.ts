import { beforeAll, describe, expect, it } from 'vitest';
import { parseKeyCondition } from '../bench/mock-store.js';
import { median, percentile } from '../bench/stats.js';
import { wireFromSnapshot } from '../bench/wire-store.js';
import { createDb, type Db } from '../shared/store/db.js';
import { keys } from '../shared/store/keys.js';
import { countDynamoDb } from '../shared/store/metrics.js';
import { batchGet, getItem, queryPartition, transact } from '../shared/store/ops.js';
import { testDb } from './support/service.js';

describe('countDynamoDb (the bench and round-trip budgets rely on it)', () => {
  let db: Db;
  beforeAll(async () => {
    db = await testDb();
    await db.doc.put({ TableName: db.table, Item: { ...keys.user(1), id: 1 } });
    await db.doc.put({ TableName: db.table, Item: { ...keys.membership(7, 1), orgId: 7 } });
  });

  it('counts a call that waits for another as a new round trip, parallel calls as one', async () => {
    const counter = countDynamoDb(db.doc);
    try {
      await getItem(db, keys.user(1));
      await Promise.all([getItem(db, keys.user(1)), queryPartition(db, keys.userPartition(1))]);
      const work = counter.read();
      expect(work.calls).toBe(3);
      expect(work.roundTrips).toBe(2);
      expect(work.byCommand).toEqual({ GetItem: 2, Query: 1 });
    } finally {
      counter.stop();
    }
  });

  it('reads consumed capacity from DynamoDB and counts transactions at 2 units per item', async () => {
    const counter = countDynamoDb(db.doc);
    try {
      await getItem(db, keys.user(1), true);
      expect(counter.read().readUnits).toBeGreaterThan(0);
      counter.reset();
      await transact(db, [
        { Put: { TableName: db.table, Item: { ...keys.user(2), id: 2 } } },
        { Put: { TableName: db.table, Item: { ...keys.user(3), id: 3 } } },
      ]);
      expect(counter.read()).toMatchObject({ calls: 1, roundTrips: 1, writeUnits: 4, readUnits: 0 });
    } finally {
      counter.stop();
    }
  });

  it('makes a Scan visible by name', async () => {
    const counter = countDynamoDb(db.doc);
    try {
      await db.doc.scan({ TableName: db.table, Limit: 1 });
      expect(counter.read().byCommand.Scan).toBe(1);
    } finally {
      counter.stop();
    }
  });

  it('counts the operations of a client already in use when it started', async () => {
    // The process-wide client has sent these operations before; the counter must still see the next ones.
    await getItem(db, keys.user(1));
    await db.doc.scan({ TableName: db.table, Limit: 1 });
    const counter = countDynamoDb(db.doc);
    try {
      await getItem(db, keys.user(1));
      await db.doc.scan({ TableName: db.table, Limit: 1 });
      expect(counter.read().byCommand).toEqual({ GetItem: 1, Scan: 1 });
    } finally {
      counter.stop();
    }
  });

  it('leaves the client as it was after stop(): nothing counted, no capacity requested', async () => {
    const counter = countDynamoDb(db.doc);
    await getItem(db, keys.user(1)); // counted, through the counter's interceptor
    counter.stop();
    counter.reset();
    const out = await db.doc.get({ TableName: db.table, Key: keys.user(1) });
    expect(out.Item?.id).toBe(1);
    expect(out.ConsumedCapacity).toBeUndefined();
    expect(counter.read().calls).toBe(0);
  });
});

describe('bench helpers', () => {
  it('answers the full DynamoDB client from a snapshot without a network (wire store)', async () => {
    // Port 9 (discard): nothing listens, so any request that escaped the fake would fail.
    const db = createDb({ table: 'snapshot', endpoint: 'http://127.0.0.1:9' });
    const wire = wireFromSnapshot(
      [
        { ...keys.user(1), id: 1, name: 'Ada' },
        { ...keys.membership(4, 1), orgId: 4 },
        { ...keys.membership(5, 1), orgId: 5 },
        { ...keys.user(2), id: 2 },
      ],
      db,
    );
    try {
      expect(await getItem(db, keys.user(1))).toMatchObject({ id: 1, name: 'Ada' });
      expect(await getItem(db, keys.user(3))).toBeUndefined();
      const members = await queryPartition(db, keys.userPartition(1), keys.membershipPrefix);
      expect(members.map((m) => m.orgId)).toEqual([4, 5]);
      expect((await batchGet(db, [keys.user(1), keys.user(2), keys.user(9)])).length).toBe(2);
      await transact(db, [{ Put: { TableName: db.table, Item: { ...keys.user(7), id: 7 } } }]);
      await db.doc.put({ TableName: db.table, Item: { ...keys.user(8), id: 8 } });
      expect(await getItem(db, keys.user(8))).toMatchObject({ id: 8 });
    } finally {
      wire.restore();
    }
    // A second snapshot on the same client, whose handlers were resolved under the first: the
    // client must answer from the new one (the bench swaps stores on the handlers' own client).
    const second = wireFromSnapshot([{ ...keys.user(1), id: 1, name: 'Grace' }], db);
    try {
      expect(await getItem(db, keys.user(1))).toMatchObject({ name: 'Grace' });
      expect(await getItem(db, keys.user(8))).toBeUndefined();
    } finally {
      second.restore();
    }
  });

  it('parses the key conditions ops.ts builds, and refuses others', () => {
    expect(parseKeyCondition('PK = :pk', { ':pk': 'USER#1' })).toEqual({ pkName: 'PK', pk: 'USER#1' });
    expect(
      parseKeyCondition('GSI1PK = :pk AND begins_with(GSI1SK, :prefix)', {
        ':pk': 'ORG#1#APPS',
        ':prefix': 'APP#',
      }),
    ).toEqual({ pkName: 'GSI1PK', pk: 'ORG#1#APPS', skName: 'GSI1SK', prefix: 'APP#' });
    expect(() => parseKeyCondition('PK = :pk AND SK > :s', { ':pk': 'x', ':s': 'y' })).toThrow(/unsupported/);
  });

  it('takes medians and nearest-rank percentiles', () => {
    expect(median([5, 1, 3])).toBe(3);
    expect(median([4, 1, 3, 2])).toBe(2.5);
    expect(percentile([1, 2, 3, 4, 5, 6, 7, 8, 9, 10], 90)).toBe(9);
    expect(percentile([1, 2, 3, 4, 5, 6, 7, 8, 9, 10], 100)).toBe(10);
    expect(Number.isNaN(median([]))).toBe(true);
  });
});
