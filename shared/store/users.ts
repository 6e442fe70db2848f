import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { conflict, notFound } from '../errors.js';
import { isoNow } from '../time.js';
import { aliasPut } from './aliases.js';
import type { Db } from './db.js';
import { type GuardState, guardState } from './guard.js';
import { type Key, keys } from './keys.js';
import {
  batchGet,
  findItem,
  getItem,
  type Item,
  isConditionalFailure,
  nextIds,
  queryPartition,
  statsAdd,
  TransactionFailed,
  transact,
} from './ops.js';
import { getConsistent } from './tokens.js';

export interface User {
  id: number;
  actorId: number;
  email: string;
  nickName: string;
  displayName: string;
  createdAt: string;
  /*
   * Keyrock's profile fields (/v1). Reads always fill them in (toUser: false, '', createdAt for
   * records written before they existed); they are optional so that a User built by hand needs none.
   */
  /** An administrator manages every user through Keyrock's /v1 API (set by `idm`, never by /v1). */
  admin?: boolean;
  description?: string;
  website?: string;
  /** When the password was last set (Keyrock's `date_password`). */
  datePassword?: string;
  /** Keyrock's id (a UUID) of a user moved by `idm import keyrock`. */
  keyrockId?: string;
}

export interface Login {
  userId: number;
  passwordHash: string;
  /** False until the emailed link is followed; logins written before the flag existed count as verified. */
  emailVerified: boolean;
}

export interface NewUser {
  email: string;
  nickName: string;
  displayName: string;
  passwordHash: string;
  /** False for a portal sign-up, which must follow the emailed link; others are verified. */
  emailVerified?: boolean | undefined;
  admin?: boolean | undefined;
  description?: string | undefined;
  website?: string | undefined;
  /** Keyrock's id of a user moved by `idm import keyrock` (kept with the profile, and claimed). */
  keyrock?: { id: string; datePassword?: string | undefined } | undefined;
}

export function toUser(item: Item): User {
  const createdAt = item.createdAt as string;
  return {
    id: item.id as number,
    actorId: item.actorId as number,
    email: item.email as string,
    nickName: item.nickName as string,
    displayName: item.displayName as string,
    createdAt,
    admin: item.admin === true,
    description: (item.description as string | undefined) ?? '',
    website: (item.website as string | undefined) ?? '',
    datePassword: (item.datePassword as string | undefined) ?? createdAt,
    ...(typeof item.keyrockId === 'string' ? { keyrockId: item.keyrockId } : {}),
  };
}

/**
 * Creates a user, its login (unique email), its nickName claim (unique), its actor pointer and
 * the users total in one transaction: a duplicate leaves nothing behind.
 */
export async function createUser(db: Db, input: NewUser): Promise<User> {
  const ids = await nextIds(db, { user: 1, actor: 1 });
  const now = isoNow();
  const user: User = {
    id: ids.user,
    actorId: ids.actor,
    email: input.email,
    nickName: input.nickName,
    displayName: input.displayName,
    createdAt: now,
    admin: input.admin === true,
    description: input.description ?? '',
    website: input.website ?? '',
    datePassword: input.keyrock?.datePassword ?? now,
    ...(input.keyrock ? { keyrockId: input.keyrock.id } : {}),
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
            ...(input.emailVerified === false ? { emailVerified: false } : {}),
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
      ...(input.keyrock ? [aliasPut(db, { kind: 'user', keyrockId: input.keyrock.id }, user.id)] : []),
    ]);
  } catch (error) {
    if (error instanceof TransactionFailed) {
      if (error.failedAt(0)) throw conflict('A user with this email already exists.', 'email');
      if (error.failedAt(1)) throw conflict('This nickName is taken.', 'nickName');
      if (error.failedAt(5)) throw conflict('This Keyrock user was imported before.', 'keyrockId');
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
  emailVerified: item.emailVerified !== false,
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

/**
 * Replaces a login's password hash, if it is still the one the caller checked (a concurrent
 * password change wins): how a hash moved from Keyrock becomes bcrypt on the first sign-in.
 */
export async function replacePasswordHash(db: Db, email: string, from: string, to: string): Promise<void> {
  try {
    await db.doc.send(
      new UpdateCommand({
        TableName: db.table,
        Key: keys.login(email),
        UpdateExpression: 'SET passwordHash = :to',
        ConditionExpression: 'passwordHash = :from',
        ExpressionAttributeValues: { ':from': from, ':to': to },
      }),
    );
  } catch (error) {
    if (!isConditionalFailure(error)) throw error;
  }
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

/** Sets or clears the administrator flag of an existing user (`idm user set-admin`). */
export async function setAdmin(db: Db, userId: number, admin: boolean): Promise<User> {
  try {
    const out = await db.doc.send(
      new UpdateCommand({
        TableName: db.table,
        Key: keys.user(userId),
        UpdateExpression: 'SET #admin = :admin',
        ConditionExpression: 'attribute_exists(PK)',
        ExpressionAttributeNames: { '#admin': 'admin' },
        ExpressionAttributeValues: { ':admin': admin },
        ReturnValues: 'ALL_NEW',
      }),
    );
    return toUser(out.Attributes as Item);
  } catch (error) {
    if (isConditionalFailure(error)) throw notFound(`User ${userId} does not exist.`);
    throw error;
  }
}

/** What a profile change sets; absent fields stay as they are. */
export interface UserChanges {
  displayName?: string | undefined;
  email?: string | undefined;
  description?: string | undefined;
  website?: string | undefined;
  /** A new bcrypt hash; `datePassword` moves with it. */
  passwordHash?: string | undefined;
}

/**
 * Changes a user's profile, email and password in one transaction. The profile must still have
 * the email it was read with (so two concurrent changes cannot leave the login under a stale
 * address); a new email moves the login item (unique, like at creation) with the current hash.
 */
export async function updateUser(db: Db, current: User, changes: UserChanges): Promise<User> {
  const now = isoNow();
  const next: User = {
    ...current,
    ...(changes.displayName !== undefined ? { displayName: changes.displayName } : {}),
    ...(changes.email !== undefined ? { email: changes.email } : {}),
    ...(changes.description !== undefined ? { description: changes.description } : {}),
    ...(changes.website !== undefined ? { website: changes.website } : {}),
    ...(changes.passwordHash !== undefined ? { datePassword: now } : {}),
  };
  const moved = next.email !== current.email;
  const items: TransactItem[] = [
    {
      Update: {
        TableName: db.table,
        Key: keys.user(current.id),
        UpdateExpression:
          'SET displayName = :n, email = :e, description = :d, website = :w, datePassword = :p',
        ConditionExpression: 'attribute_exists(PK) AND email = :old',
        ExpressionAttributeValues: {
          ':n': next.displayName,
          ':e': next.email,
          ':d': next.description ?? '',
          ':w': next.website ?? '',
          ':p': next.datePassword ?? next.createdAt,
          ':old': current.email,
        },
      },
    },
  ];
  if (moved) {
    const login = await getItem(db, keys.login(current.email), true);
    if (!login || login.userId !== current.id) throw conflict('The user changed meanwhile; try again.');
    items.push(
      {
        Delete: {
          TableName: db.table,
          Key: keys.login(current.email),
          ConditionExpression: 'userId = :id',
          ExpressionAttributeValues: { ':id': current.id },
        },
      },
      {
        Put: {
          TableName: db.table,
          Item: {
            ...keys.login(next.email),
            type: 'login',
            userId: current.id,
            passwordHash: changes.passwordHash ?? (login.passwordHash as string),
          },
          ConditionExpression: 'attribute_not_exists(PK)',
        },
      },
    );
  } else if (changes.passwordHash !== undefined) {
    items.push({
      Update: {
        TableName: db.table,
        Key: keys.login(current.email),
        UpdateExpression: 'SET passwordHash = :h',
        ConditionExpression: 'userId = :id',
        ExpressionAttributeValues: { ':h': changes.passwordHash, ':id': current.id },
      },
    });
  }
  try {
    await transact(db, items);
  } catch (error) {
    if (error instanceof TransactionFailed) {
      if (moved && error.failedAt(2)) throw conflict('A user with this email already exists.', 'email');
      if (error.reasons.some((r) => r === 'ConditionalCheckFailed')) {
        throw conflict('The user changed meanwhile; try again.');
      }
    }
    throw error;
  }
  return next;
}

type TransactItem = Parameters<typeof transact>[1][number];

/** DynamoDB's limit on the items of one TransactWriteItems. */
const TRANSACTION_LIMIT = 100;

/**
 * Deletes a user and everything that is theirs: profile, login, nickName claim, actor pointer,
 * memberships (an organization's owner count moves with an owner's), authorizations, consents,
 * and the users total. Everything goes in ONE transaction when it fits in DynamoDB's 100 items,
 * which is every user with fewer than about 90 memberships, authorizations and consents. A
 * bigger partition first loses its authorizations, consents and plain memberships in
 * transactions of 100 (each leaves a consistent user with fewer grants), then the rest together.
 * The last owner of an organization cannot be deleted (409): an organization always keeps one.
 */
export async function deleteUser(db: Db, userId: number): Promise<void> {
  const partition = await queryPartition(db, keys.userPartition(userId));
  const profile = partition.find((i) => i.SK === keys.user(userId).SK);
  if (!profile) throw notFound(`User ${userId} does not exist.`);
  const user = toUser(profile);
  const owned = partition.filter(
    (i) => (i.SK as string).startsWith(keys.membershipPrefix) && i.role === 'owner',
  );
  if (owned.length > 0) {
    const orgs = await getConsistent(
      db,
      owned.map((m) => keys.organization(m.orgId as number)),
    );
    const alone = orgs.find((o) => Number(o.owners ?? 0) <= 1);
    if (alone) throw lastOwner(userId, alone.id as number);
  }
  const mine = (key: Key): TransactItem => ({
    Delete: {
      TableName: db.table,
      Key: key,
      ConditionExpression: 'attribute_not_exists(PK) OR userId = :id',
      ExpressionAttributeValues: { ':id': userId },
    },
  });
  const core: TransactItem[] = [
    { Delete: { TableName: db.table, Key: keys.user(userId), ConditionExpression: 'attribute_exists(PK)' } },
    mine(keys.login(user.email)),
    mine(keys.nick(user.nickName)),
    {
      Delete: {
        TableName: db.table,
        Key: keys.actor(user.actorId),
        ConditionExpression: 'attribute_not_exists(PK) OR (kind = :user AND id = :id)',
        ExpressionAttributeValues: { ':user': 'user', ':id': userId },
      },
    },
    statsAdd(db, 'users', -1),
  ];
  const ownerItems: TransactItem[] = owned.flatMap((m) => [
    {
      Delete: {
        TableName: db.table,
        Key: { PK: m.PK as string, SK: m.SK as string },
        ConditionExpression: '#r = :owner',
        ExpressionAttributeNames: { '#r': 'role' },
        ExpressionAttributeValues: { ':owner': 'owner' },
      },
    },
    {
      Update: {
        TableName: db.table,
        Key: keys.organization(m.orgId as number),
        UpdateExpression: 'ADD owners :d',
        ConditionExpression: 'owners > :one',
        ExpressionAttributeValues: { ':d': -1, ':one': 1 },
      },
    },
  ]);
  const rest: TransactItem[] = partition
    .filter((i) => i !== profile && !owned.includes(i))
    .map((i) => ({ Delete: { TableName: db.table, Key: { PK: i.PK as string, SK: i.SK as string } } }));
  if (core.length + ownerItems.length > TRANSACTION_LIMIT) {
    throw conflict(`User ${userId} owns too many organizations to be deleted at once; hand some over first.`);
  }
  let final = [...core, ...ownerItems];
  if (final.length + rest.length <= TRANSACTION_LIMIT) final = [...final, ...rest];
  else {
    for (let i = 0; i < rest.length; i += TRANSACTION_LIMIT) {
      await transact(db, rest.slice(i, i + TRANSACTION_LIMIT));
    }
  }
  try {
    await transact(db, final);
  } catch (error) {
    if (error instanceof TransactionFailed) {
      if (error.failedAt(0)) throw notFound(`User ${userId} does not exist.`);
      const ownerAt = ownerItems.findIndex((_, i) => i % 2 === 1 && error.failedAt(core.length + i));
      if (ownerAt >= 0) throw lastOwner(userId, owned[(ownerAt - 1) / 2]!.orgId as number);
      throw conflict('The user changed meanwhile; try again.');
    }
    throw error;
  }
}

const lastOwner = (userId: number, orgId: number) =>
  conflict(`User ${userId} is the last owner of organization ${orgId}; give it another owner first.`);

/** One page of users by id (pattern 21) and the highest id drawn so far, in one BatchGetItem. */
export async function usersPage(
  db: Db,
  fromId: number,
  limit: number,
): Promise<{ users: User[]; lastId: number }> {
  const ids = Array.from({ length: limit }, (_, i) => fromId + i);
  const items = await batchGet(db, [keys.counters(), ...ids.map(keys.user)]);
  const counters = findItem(items, keys.counters());
  const users = items
    .filter((i) => i.type === 'user')
    .map(toUser)
    .sort((a, b) => a.id - b.id);
  return { users, lastId: Number(counters?.user ?? 0) };
}
