import { conflict, notFound } from '../errors.js';
import { isoNow } from '../time.js';
import type { Db } from './db.js';
import { type GuardState, guardState } from './guard.js';
import { type Key, keys } from './keys.js';
import {
  batchGet,
  findItem,
  getItem,
  type Item,
  nextIds,
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

const toLogin = (item: Item): Login => ({
  userId: item.userId as number,
  passwordHash: item.passwordHash as string,
});

export async function getLogin(db: Db, email: string): Promise<Login | undefined> {
  const item = await getItem(db, keys.login(email));
  return item ? toLogin(item) : undefined;
}

/** What a password check needs about an email: its login (if any) and its brute-force guard. */
export interface Credentials {
  login?: Login | undefined;
  guard?: GuardState | undefined;
}

/** The login and guard items of an email, keys for one BatchGetItem (with whatever else a caller reads). */
export function credentialKeys(email: string): Key[] {
  return [keys.login(email), keys.guard(email)];
}

/** Picks the credentials of an email out of a batch that read credentialKeys(email). */
export function credentialsFrom(items: Item[], email: string): Credentials {
  const login = findItem(items, keys.login(email));
  return {
    login: login ? toLogin(login) : undefined,
    guard: guardState(findItem(items, keys.guard(email))),
  };
}

/** The credentials of an email, in one BatchGetItem. */
export async function getCredentials(db: Db, email: string): Promise<Credentials> {
  return credentialsFrom(await batchGet(db, credentialKeys(email)), email);
}

/** Users by id, in one BatchGetItem per 100; unknown ids are absent from the map. */
export async function usersByIds(db: Db, userIds: number[]): Promise<Map<number, User>> {
  const items = userIds.length > 0 ? await batchGet(db, userIds.map(keys.user)) : [];
  return new Map(items.map((i) => [i.id as number, toUser(i)]));
}

/** A user or an organization, by the actor id Keyrock's lookups use. */
export interface Actor {
  kind: 'user' | 'org';
  id: number;
}

export async function getActor(db: Db, actorId: number): Promise<Actor | undefined> {
  const item = await getItem(db, keys.actor(actorId));
  return item ? { kind: item.kind as Actor['kind'], id: item.id as number } : undefined;
}

export async function userIdByNick(db: Db, nickName: string): Promise<number | undefined> {
  const item = await getItem(db, keys.nick(nickName));
  return item ? (item.userId as number) : undefined;
}
