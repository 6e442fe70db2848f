import { describe, expect, it } from 'vitest';
import { DISABLED, refusal, refusalDescription } from '../../../../shared/domain/accounts.js';
import { decodeCursor, directoryEntry, encodeCursor } from '../../../../shared/domain/administration.js';
import { changeAdministrator, setAccountEnabled } from '../../../../shared/domain/user-admin.js';
import { bool, searchPrefix } from '../../../../shared/domain/validate.js';
import { userChangesBody } from '../../../../shared/keyrock/request.js';
import type { Db } from '../../../../shared/store/db.js';
import type { User } from '../../../../shared/store/users.js';

/** A table that must not be touched: the rules below decide before any read or write. */
const untouchable = new Proxy({} as Db, {
  get() {
    throw new Error('The rule should have decided before touching the table.');
  },
});

const EMAIL_KEY = { PK: 'USER#7', SK: 'PROFILE', GSI1PK: 'DIRECTORY#EMAIL', GSI1SK: 'zoe@example.com' };
const NAME_KEY = { PK: 'USERNAME#7', SK: 'NAME', GSI1PK: 'DIRECTORY#NAME', GSI1SK: 'zoe zimmer#7' };

describe('directory cursors', () => {
  it('round-trip the index position DynamoDB gave, for the same field and prefix', () => {
    expect(decodeCursor(encodeCursor(EMAIL_KEY), 'email', 'z')).toEqual(EMAIL_KEY);
    expect(decodeCursor(encodeCursor(EMAIL_KEY), 'email', '')).toEqual(EMAIL_KEY);
    expect(decodeCursor(encodeCursor(NAME_KEY), 'name', 'ZOE')).toEqual(NAME_KEY);
  });

  it('refuse anything else with a 400 on `cursor`, so DynamoDB never sees a foreign start key', () => {
    const refusals = [
      'not base64 json',
      encodeCursor({ ...EMAIL_KEY, extra: 'x' }),
      encodeCursor({ PK: 'USER#7', SK: 'PROFILE', GSI1PK: 'DIRECTORY#EMAIL' }),
      encodeCursor({ ...EMAIL_KEY, GSI1SK: 7 }),
      encodeCursor({ ...EMAIL_KEY, GSI1PK: 'USER#7#SESSIONS' }),
      Buffer.from('[1,2]').toString('base64url'),
    ];
    for (const raw of refusals) {
      expect(() => decodeCursor(raw, 'email', ''), raw).toThrow(
        expect.objectContaining({ status: 400, field: 'cursor' }),
      );
    }
    // Another field's position, or a position outside the prefix searched.
    expect(() => decodeCursor(encodeCursor(EMAIL_KEY), 'name', '')).toThrow(
      expect.objectContaining({ field: 'cursor' }),
    );
    expect(() => decodeCursor(encodeCursor(EMAIL_KEY), 'email', 'a')).toThrow(
      expect.objectContaining({ field: 'cursor' }),
    );
  });
});

describe('directory entries', () => {
  const user: User = {
    id: 7,
    actorId: 9,
    email: 'zoe@example.com',
    nickName: 'zoe',
    displayName: 'Zoe',
    createdAt: '2026-01-01T00:00:00.000Z',
  };
  it('count a user without flags as enabled and not an administrator', () => {
    expect(directoryEntry(user)).toEqual({
      id: 7,
      email: 'zoe@example.com',
      displayName: 'Zoe',
      nickName: 'zoe',
      admin: false,
      enabled: true,
      createdAt: '2026-01-01T00:00:00.000Z',
    });
    expect(directoryEntry({ ...user, enabled: false, admin: true })).toMatchObject({
      enabled: false,
      admin: true,
    });
  });
});

describe('who may switch an account or the administrator flag', () => {
  const admin = { id: 1, admin: true };
  const plain = { id: 2, admin: false };

  it('refuses everyone but administrators (403)', async () => {
    await expect(setAccountEnabled(untouchable, plain, 3, false)).rejects.toMatchObject({ status: 403 });
    await expect(changeAdministrator(untouchable, plain, 3, true)).rejects.toMatchObject({ status: 403 });
  });

  it('refuses an administrator acting on themselves (400), so nobody locks themselves out', async () => {
    await expect(setAccountEnabled(untouchable, admin, 1, false)).rejects.toMatchObject({
      status: 400,
      field: 'enabled',
    });
    await expect(changeAdministrator(untouchable, admin, 1, false)).rejects.toMatchObject({
      status: 400,
      field: 'admin',
    });
  });
});

describe('a disabled account at sign-in', () => {
  it('is refused with 403 account_disabled in the portal, and its own words in invalid_grant', () => {
    const error = refusal('disabled');
    expect(error).toMatchObject({ status: 403, code: 'account_disabled', message: DISABLED });
    expect(refusalDescription('disabled')).toBe(DISABLED);
  });
});

describe('input rules', () => {
  it('take only real booleans for switches', () => {
    expect(bool(true, 'enabled')).toBe(true);
    expect(bool(false, 'enabled')).toBe(false);
    for (const value of ['true', 1, null, undefined]) {
      expect(() => bool(value, 'enabled')).toThrow(expect.objectContaining({ field: 'enabled' }));
    }
  });

  it('trim a search prefix and cap it at 100 characters', () => {
    expect(searchPrefix(undefined)).toBe('');
    expect(searchPrefix('  ann ')).toBe('ann');
    expect(() => searchPrefix('a'.repeat(101))).toThrow(expect.objectContaining({ field: 'q' }));
    expect(() => searchPrefix(['a'])).toThrow(expect.objectContaining({ field: 'q' }));
  });

  it('read Keyrock’s `enabled` from a PATCH body as it was sent', () => {
    const body = (user: unknown) => userChangesBody('application/json', JSON.stringify({ user }));
    expect(body({ enabled: false })).toEqual({ enabled: false });
    expect(body({ username: 'Ann' })).toEqual({ displayName: 'Ann' });
  });
});
