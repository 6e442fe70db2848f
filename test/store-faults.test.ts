/**
 * Faults DynamoDB Local cannot be made to produce on demand (throttling inside a transaction,
 * a run of conflicts), answered by a scripted endpoint in DynamoDB's error format
 * (test/support/scripted-aws.ts), so the client's parsing and retries run as they would in AWS.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createDb } from '../shared/store/db.js';
import { TransactionFailed } from '../shared/store/ops.js';
import { createUser } from '../shared/store/users.js';
import { cancelled, failure, ok, scriptedAws } from './support/scripted-aws.js';

const db = createDb({ table: 'faults', endpoint: 'http://127.0.0.1:9' });
const ddb = scriptedAws(db.doc.client);
afterEach(() => ddb.reset());

const counters = (user: number, actor: number) =>
  ok({ Attributes: { user: { N: String(user) }, actor: { N: String(actor) } } });
const alice = { email: 'a@example.com', nickName: 'alice', displayName: 'A', passwordHash: 'h' };

describe('store under faults', () => {
  it('a throttled transaction fails cleanly, all in one request: nothing is written piecemeal', async () => {
    ddb.on('UpdateItem', counters(7, 9));
    ddb.on('TransactWriteItems', cancelled('None', 'None', 'ThrottlingError', 'None', 'None'));

    const error = await createUser(db, alice).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TransactionFailed);
    expect((error as TransactionFailed).reasons).toEqual([
      undefined,
      undefined,
      'ThrottlingError',
      undefined,
      undefined,
    ]);
    // Not a duplicate-email or duplicate-nick verdict: the caller sees a failure, not a wrong reason.
    expect((error as Error).message).toBe('transaction cancelled: ,,ThrottlingError,,');
    // The user's items only ever travel together in the one (cancelled) transaction.
    expect(ddb.calls('PutItem')).toHaveLength(0);
    expect(ddb.calls('TransactWriteItems')).toHaveLength(1);
    const items = ddb.calls('TransactWriteItems')[0]!.TransactItems as {
      Put?: { Item: { PK: { S: string } } };
      Update?: { Key: { PK: { S: string } } };
    }[];
    expect(items.map((i) => (i.Put?.Item.PK ?? i.Update?.Key.PK)?.S)).toEqual([
      'LOGIN#a@example.com',
      'NICK#alice',
      'USER#7',
      'ACTOR#9',
      'COUNTER',
      // The user directory's display-name entry (keys.ts pattern 33).
      'USERNAME#7',
    ]);
  });

  it('retries transaction conflicts (a busy totals item) and then succeeds', async () => {
    ddb.on('UpdateItem', counters(1, 1));
    const conflict = cancelled('None', 'None', 'None', 'None', 'TransactionConflict');
    ddb.on('TransactWriteItems', conflict, conflict, ok());
    const user = await createUser(db, alice);
    expect(user).toMatchObject({ id: 1, actorId: 1, email: 'a@example.com' });
    expect(ddb.calls('TransactWriteItems')).toHaveLength(3);
  });

  it('gives up after repeated conflicts with a TransactionFailed, never a half-written user', async () => {
    ddb.on('UpdateItem', counters(1, 1));
    ddb.on('TransactWriteItems', cancelled('None', 'None', 'None', 'None', 'TransactionConflict'));
    const error = await createUser(db, alice).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TransactionFailed);
    expect(ddb.calls('TransactWriteItems')).toHaveLength(8);
    expect(ddb.calls('PutItem')).toHaveLength(0);
  }, 20_000);

  it("a throttled counter surfaces the error after the client's retries, before anything is written", async () => {
    ddb.on(
      'UpdateItem',
      failure(
        400,
        'ProvisionedThroughputExceededException',
        'Rate of requests exceeds the allowed throughput.',
      ),
    );
    await expect(createUser(db, alice)).rejects.toMatchObject({
      name: 'ProvisionedThroughputExceededException',
      $fault: 'client',
      $metadata: { httpStatusCode: 400, attempts: 4 },
    });
    expect(ddb.calls('UpdateItem')).toHaveLength(4);
    expect(ddb.calls('TransactWriteItems')).toHaveLength(0);
  }, 20_000);
});
