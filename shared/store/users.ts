import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { conflict, notFound } from '../errors.js';
import type { Db } from './db.js';
import { keys } from './keys.js';
import {
  getItem,
  type Item,
  isoNow,
  nextIds,
  queryPartition,
  statsAdd,
  TransactionFailed,
  transact,
} from './ops.js';

export interface User {
  id: number;
  actorId: number;
  email: string;
  nickName: string;
  displayName: string;
  createdAt: string;
}

export interface Login {
  userId: number;
  passwordHash: string;
}

export interface NewUser {
  email: string;
  nickName: string;
  displayName: string;
  passwordHash: string;
}

export function toUser(item: Item): User {
  return {
    id: item.id as number,
    actorId: item.actorId as number,
    email: item.email as string,
    nickName: item.nickName as string,
    displayName: item.displayName as string,
    createdAt: item.createdAt as string,
  };
}

/**
 * Creates a user, its login (unique email), its nickName claim (unique), its actor pointer and
 * the users total in one transaction: a duplicate leaves nothing behind.
 */
export async function createUser(db: Db, input: NewUser): Promise<User> {
  const ids = await nextIds(db, { user: 1, actor: 1 });
  const user: User = {
    id: ids.user,
    actorId: ids.actor,
    email: input.email,
    nickName: input.nickName,
    displayName: input.displayName,
    createdAt: isoNow(),
  };
  const absent = 'attribute_not_exists(PK)';
  try {
    await transact(db, [
      {
        Put: {
          TableName: db.table,
          Item: {
            ...keys.login(user.email),
            type: 'login',
            userId: user.id,
            passwordHash: input.passwordHash,
          },
          ConditionExpression: absent,
        },
      },
      {
        Put: {
          TableName: db.table,
          Item: { ...keys.nick(user.nickName), type: 'nick', userId: user.id },
          ConditionExpression: absent,
        },
      },
      {
        Put: {
          TableName: db.table,
          Item: { ...keys.user(user.id), type: 'user', ...user },
          ConditionExpression: absent,
        },
      },
      {
        Put: {
          TableName: db.table,
          Item: { ...keys.actor(user.actorId), type: 'actor', kind: 'user', id: user.id },
          ConditionExpression: absent,
        },
      },
      statsAdd(db, 'users', 1),
    ]);
  } catch (error) {
    if (error instanceof TransactionFailed) {
      if (error.failedAt(0)) throw conflict('A user with this email already exists.', 'email');
      if (error.failedAt(1)) throw conflict('This nickName is taken.', 'nickName');
    }
    throw error;
  }
  return user;
}

export async function getUser(db: Db, userId: number): Promise<User | undefined> {
  const item = await getItem(db, keys.user(userId));
  return item ? toUser(item) : undefined;
}

export async function requireUser(db: Db, userId: number): Promise<User> {
  const user = await getUser(db, userId);
  if (!user) throw notFound(`User ${userId} does not exist.`);
  return user;
}

export async function getLogin(db: Db, email: string): Promise<Login | undefined> {
  const item = await getItem(db, keys.login(email));
  return item ? { userId: item.userId as number, passwordHash: item.passwordHash as string } : undefined;
}

export async function userIdByNick(db: Db, nickName: string): Promise<number | undefined> {
  const item = await getItem(db, keys.nick(nickName));
  return item ? (item.userId as number) : undefined;
}

/** Replaces the password hash (the login item is the only place it is kept). */
export async function setPasswordHash(db: Db, email: string, passwordHash: string): Promise<void> {
  const existing = await getItem(db, keys.login(email), true);
  if (!existing) throw notFound('No user has this email.');
  await db.doc.send(
    new PutCommand({
      TableName: db.table,
      Item: { ...existing, passwordHash },
      ConditionExpression: 'attribute_exists(PK)',
    }),
  );
}

/** Everything under USER#<id>: profile, memberships, authorizations, consents. One Query. */
export function userPartition(db: Db, userId: number): Promise<Item[]> {
  return queryPartition(db, keys.userPartition(userId));
}
