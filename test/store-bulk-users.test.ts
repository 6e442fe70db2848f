import { beforeAll, describe, expect, it } from 'vitest';
import { AppError } from '../shared/errors.js';
import { importedIds } from '../shared/store/aliases.js';
import type { Db } from '../shared/store/db.js';
import { addUsersToTotals, totals, userIdBlock } from '../shared/store/stats.js';
import { createUsers, getLogin, getUser, type NewUser } from '../shared/store/users.js';
import { newUser } from './support/oauth.js';
import { testDb } from './support/service.js';

/**
 * Several users in one transaction (the Keyrock import's writer, store/users.ts `createUsers`):
 * a taken claim refuses only its own user, and the rest are written exactly once.
 */
let db: Db;

beforeAll(async () => {
  db = await testDb();
});

async function moved(names: string[], emails = names.map((n) => `${n}@bulk.test`)): Promise<NewUser[]> {
  const block = await userIdBlock(db, names.length);
  return names.map((name, k) => ({
    email: emails[k]!,
    nickName: name,
    displayName: name,
    passwordHash: '$2b$04$abcdefghijklmnopqrstuuVf1ovRn5dC3rUTTnfHOd9PlE5IuRW9G',
    keyrock: { id: `kr-${name}-${emails[k]}` },
    bulk: { userId: block.firstUser + k, actorId: block.firstActor + k },
  }));
}

describe('createUsers', () => {
  it('writes every user of a group, each with login, profile and Keyrock alias', async () => {
    const inputs = await moved(['ann', 'ben', 'cid']);
    const results = await createUsers(db, inputs);
    expect(results.map((r) => (r instanceof AppError ? r.message : r.email))).toEqual([
      'ann@bulk.test',
      'ben@bulk.test',
      'cid@bulk.test',
    ]);
    for (const input of inputs) {
      expect((await getLogin(db, input.email))?.userId).toBe(input.bulk!.userId);
      expect((await getUser(db, input.bulk!.userId))?.keyrockId).toBe(input.keyrock!.id);
    }
  });

  it('refuses only the users whose email, nickName or Keyrock id is taken, and writes the others', async () => {
    const existing = await newUser(db, 'dora');
    const [taken, nick, fresh, again] = await moved(
      ['eve', 'ann', 'fay', 'gus'],
      [existing.email, 'ann2@bulk.test', 'fay@bulk.test', 'gus@bulk.test'],
    );
    const [first] = await createUsers(db, [again!]);
    expect(first).not.toBeInstanceOf(AppError);
    const before = await totals(db);
    const results = await createUsers(db, [
      taken!,
      nick!,
      fresh!,
      // The same Keyrock user once more, under another email and nickName: only its alias is taken.
      {
        ...again!,
        email: 'gus2@bulk.test',
        nickName: 'gus2',
        bulk: { userId: fresh!.bulk!.userId + 100, actorId: fresh!.bulk!.actorId + 100 },
      },
    ]);
    expect(results.map((r) => (r instanceof AppError ? r.field : 'written'))).toEqual([
      'email',
      'nickName',
      'written',
      'keyrockId',
    ]);
    // The refused users left nothing behind; the written one is whole.
    expect(await getUser(db, taken!.bulk!.userId)).toBeUndefined();
    expect(await getUser(db, nick!.bulk!.userId)).toBeUndefined();
    expect(await getLogin(db, 'ann2@bulk.test')).toBeUndefined();
    expect((await getLogin(db, 'fay@bulk.test'))?.userId).toBe(fresh!.bulk!.userId);
    expect(await importedIds(db, 'user', [fresh!.keyrock!.id])).toEqual(
      new Map([[fresh!.keyrock!.id, fresh!.bulk!.userId]]),
    );
    // The caller counts its users: nothing was added to the totals on the way.
    expect(await totals(db)).toEqual(before);
    await addUsersToTotals(db, 1);
    expect((await totals(db)).users).toBe(before.users + 1);
  });

  it('refuses users made without ids given', async () => {
    await expect(
      createUsers(db, [{ email: 'x@bulk.test', nickName: 'xx', displayName: 'x', passwordHash: 'h' }]),
    ).rejects.toThrow(/ids given/);
  });
});
