/**
 * Faults DynamoDB Local cannot be made to produce on demand (throttling inside a transaction,
 * a run of conflicts), simulated with aws-sdk-client-mock at the SDK boundary.
 */
import {
  PutItemCommand,
  TransactionCanceledException,
  TransactWriteItemsCommand,
  UpdateItemCommand,
} from '@aws-sdk/client-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { afterEach, describe, expect, it } from 'vitest';
import { createDb } from '../shared/store/db.js';
import { TransactionFailed } from '../shared/store/ops.js';
import { createUser } from '../shared/store/users.js';

const db = createDb({ table: 'faults', endpoint: 'http://127.0.0.1:9' });
const ddb = mockClient(db.doc.client);
afterEach(() => ddb.reset());

const cancelled = (...codes: string[]) =>
  new TransactionCanceledException({
    message: 'Transaction cancelled',
    $metadata: {},
    CancellationReasons: codes.map((Code) => ({ Code })),
  });

const alice = { email: 'a@example.com', nickName: 'alice', displayName: 'A', passwordHash: 'h' };

describe('store under faults', () => {
  it('a throttled transaction fails cleanly, all in one request: nothing is written piecemeal', async () => {
    ddb.on(UpdateItemCommand).resolves({ Attributes: { user: { N: '7' }, actor: { N: '9' } } });
    ddb.on(TransactWriteItemsCommand).rejects(cancelled('None', 'None', 'ThrottlingError', 'None', 'None'));

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
    expect(ddb.commandCalls(PutItemCommand)).toHaveLength(0);
    expect(ddb.commandCalls(TransactWriteItemsCommand)).toHaveLength(1);
    const items = ddb.commandCalls(TransactWriteItemsCommand)[0]!.args[0].input.TransactItems ?? [];
    expect(items.map((i) => (i.Put?.Item?.PK ?? i.Update?.Key?.PK)?.S)).toEqual([
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
    ddb.on(UpdateItemCommand).resolves({ Attributes: { user: { N: '1' }, actor: { N: '1' } } });
    ddb
      .on(TransactWriteItemsCommand)
      .rejectsOnce(cancelled('None', 'None', 'None', 'None', 'TransactionConflict'))
      .rejectsOnce(cancelled('None', 'None', 'None', 'None', 'TransactionConflict'))
      .resolves({});
    const user = await createUser(db, alice);
    expect(user).toMatchObject({ id: 1, actorId: 1, email: 'a@example.com' });
    expect(ddb.commandCalls(TransactWriteItemsCommand)).toHaveLength(3);
  });

  it('gives up after repeated conflicts with a TransactionFailed, never a half-written user', async () => {
    ddb.on(UpdateItemCommand).resolves({ Attributes: { user: { N: '1' }, actor: { N: '1' } } });
    ddb
      .on(TransactWriteItemsCommand)
      .rejects(cancelled('None', 'None', 'None', 'None', 'TransactionConflict'));
    const error = await createUser(db, alice).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TransactionFailed);
    expect(ddb.commandCalls(TransactWriteItemsCommand)).toHaveLength(8);
    expect(ddb.commandCalls(PutItemCommand)).toHaveLength(0);
  }, 20_000);

  it('a throttled counter surfaces the SDK error before anything is written', async () => {
    const throttled = Object.assign(new Error('Rate of requests exceeds the allowed throughput.'), {
      name: 'ProvisionedThroughputExceededException',
    });
    ddb.on(UpdateItemCommand).rejects(throttled);
    await expect(createUser(db, alice)).rejects.toMatchObject({
      name: 'ProvisionedThroughputExceededException',
    });
    expect(ddb.commandCalls(TransactWriteItemsCommand)).toHaveLength(0);
  });
});
