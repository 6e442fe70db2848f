import { AppError, conflict, notFound } from '../errors.js';
import { isoNow } from '../time.js';
import { aliasPut } from './aliases.js';
import type { Db } from './db.js';
import { type GuardState, guardState } from './guard.js';
import { GSI1, type Key, keys } from './keys.js';
import {
  batchGet,
  findItem,
  getItem,
  type Item,
  nextIds,
  queryPartition,
  statsAdd,
  TransactionFailed,
  transact,
  writtenIf,
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
  /**
   * False once an administrator disabled the account: it cannot sign in and every token of it is
   * refused where its user is read (stored as `disabled: true`; absent means enabled).
   */
  enabled?: boolean;
}

export interface Login {
  userId: number;
  passwordHash: string;
  /** False until the emailed link is followed; logins written before the flag existed count as verified. */
  emailVerified: boolean;
  /** A copy of the profile's flag, so a password check refuses a disabled account with no extra read. */
  disabled?: boolean;
}

export interface NewUser {
  email: string;
  nickName: string;
  displayName: string;
  passwordHash: string;
  /** False for a portal sign-up, which must follow the emailed link; others are verified. */
  emailVerified?: boolean | undefined;
  admin?: boolean | undefined;
  /** False creates the account disabled (a Keyrock account moved as Keyrock had it); default true. */
  enabled?: boolean | undefined;
  description?: string | undefined;
  website?: string | undefined;
  /** Keyrock's id of a user moved by `idm import keyrock` (kept with the profile, and claimed). */
  keyrock?: { id: string; datePassword?: string | undefined } | undefined;
  /**
   * A bulk writer (`idm import keyrock`) allocated the ids in one block and adds the users total
   * once per batch: parallel transactions that all updated the totals item would cancel each
   * other (TransactionConflict).
   */
  bulk?: { userId: number; actorId: number } | undefined;
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
    enabled: item.disabled !== true,
  };
}

/** The items that make a user, and where the unique claims sit among them. */
function newUserItems(db: Db, input: NewUser, ids: { user: number; actor: number }) {
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
    enabled: input.enabled !== false,
  };
  // Stored as `disabled: true` on the profile and its login copy, as setEnabled writes it.
  const disabled = user.enabled ? {} : { disabled: true };
  const absent = 'attribute_not_exists(PK)';
  const items = [
    {
      Put: {
        TableName: db.table,
        Item: {
          ...keys.login(user.email),
          type: 'login',
          userId: user.id,
          passwordHash: input.passwordHash,
          ...(input.emailVerified === false ? { emailVerified: false } : {}),
          ...disabled,
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
        Item: {
          ...keys.user(user.id),
          ...keys.userEmailGsi(user.email),
          type: 'user',
          ...withoutEnabled(user),
          ...disabled,
        },
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
    ...(input.keyrock ? [aliasPut(db, { kind: 'user', keyrockId: input.keyrock.id }, user.id)] : []),
    ...(input.bulk ? [] : [statsAdd(db, 'users', 1)]),
    nameEntryPut(db, user),
    ...(user.admin ? [adminsChange(db, user.id, true)] : []),
  ];
  // Which claim failed, by the item's position (DynamoDB reports a reason per item).
  const claims: [number, AppError][] = [
    [0, conflict('A user with this email already exists.', 'email')],
    [1, conflict('This nickName is taken.', 'nickName')],
    ...(input.keyrock
      ? ([[4, conflict('This Keyrock user was imported before.', 'keyrockId')]] as [number, AppError][])
      : []),
  ];
  return { user, items, claims };
}

/**
 * Creates a user, its login (unique email), its nickName claim (unique), its actor pointer and
 * the users total in one transaction: a duplicate leaves nothing behind.
 */
export async function createUser(db: Db, input: NewUser): Promise<User> {
  const ids = input.bulk
    ? { user: input.bulk.userId, actor: input.bulk.actorId }
    : await nextIds(db, { user: 1, actor: 1 });
  const { user, items, claims } = newUserItems(db, input, ids);
  try {
    await transact(db, items);
  } catch (error) {
    if (error instanceof TransactionFailed) {
      for (const [at, refusal] of claims) if (error.failedAt(at)) throw refusal;
    }
    throw error;
  }
  return user;
}

/** Users per transaction for a bulk writer: 16 × at most 6 items stays under DynamoDB's 100. */
export const USERS_PER_TRANSACTION = 16;

/**
 * Creates several users made with `NewUser.bulk` (ids given, totals counted by the caller) in
 * one transaction, each still all-or-nothing with its claims checked: when some user's email,
 * nickName or Keyrock id is taken, DynamoDB cancels the whole transaction and names the items,
 * so those users are answered with their refusal and the rest go again. DynamoDB Local spends
 * most of its time per transaction, not per item, which is what makes `idm import keyrock` fast.
 */
export async function createUsers(db: Db, inputs: NewUser[]): Promise<(User | AppError)[]> {
  const results: (User | AppError)[] = new Array(inputs.length);
  let pending = inputs.map((input, i) => {
    if (!input.bulk) throw new Error('createUsers needs users with ids given (NewUser.bulk).');
    return { i, built: newUserItems(db, input, { user: input.bulk.userId, actor: input.bulk.actorId }) };
  });
  while (pending.length > 0) {
    try {
      await transact(
        db,
        pending.flatMap((p) => p.built.items),
      );
      for (const p of pending) results[p.i] = p.built.user;
      return results;
    } catch (error) {
      if (!(error instanceof TransactionFailed)) throw error;
      let offset = 0;
      const retry: typeof pending = [];
      for (const p of pending) {
        const refusal = p.built.claims.find(([at]) => error.failedAt(offset + at))?.[1];
        if (refusal) results[p.i] = refusal;
        else retry.push(p);
        offset += p.built.items.length;
      }
      // A cancellation that names no claim is not about these users: let it surface.
      if (retry.length === pending.length) throw error;
      pending = retry;
    }
  }
  return results;
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
  ...(item.disabled === true ? { disabled: true } : {}),
});

/** The profile as stored: `enabled` is kept as `disabled: true` only when it is false. */
function withoutEnabled(user: User): Omit<User, 'enabled'> {
  const { enabled: _enabled, ...rest } = user;
  return rest;
}

/**
 * The display-name entry of the user directory (pattern 33): written with the user, rewritten
 * with every profile change (which also builds it for users created before the directory).
 */
function nameEntryPut(db: Db, user: Pick<User, 'id' | 'displayName'>) {
  return {
    Put: {
      TableName: db.table,
      Item: {
        ...keys.userNameEntry(user.id),
        ...keys.userNameGsi(user.displayName, user.id),
        type: 'userName',
        userId: user.id,
      },
    },
  };
}

/**
 * Adds a user id to the administrators' set or takes it out (pattern 34). Taking one out is
 * refused when it would leave the set empty: the last administrator stays one.
 */
function adminsChange(db: Db, userId: number, admin: boolean) {
  return {
    Update: {
      TableName: db.table,
      Key: keys.admins(),
      UpdateExpression: admin ? 'ADD ids :id' : 'DELETE ids :id',
      ...(admin
        ? {}
        : {
            ConditionExpression: 'NOT contains(ids, :n) OR size(ids) > :one',
            ExpressionAttributeValues: { ':id': new Set([userId]), ':n': userId, ':one': 1 },
          }),
      ...(admin ? { ExpressionAttributeValues: { ':id': new Set([userId]) } } : {}),
    },
  };
}

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
  // A lost race (the condition failed) leaves the item as the winner wrote it.
  await writtenIf(
    db.doc.update({
      TableName: db.table,
      Key: keys.login(email),
      UpdateExpression: 'SET passwordHash = :to',
      ConditionExpression: 'passwordHash = :from',
      ExpressionAttributeValues: { ':from': from, ':to': to },
    }),
  );
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

/**
 * Sets or clears the administrator flag of an existing user, with the administrators' set in the
 * same transaction: taking away the last administrator's flag is refused (409).
 */
export async function setAdmin(db: Db, userId: number, admin: boolean): Promise<User> {
  const item = await getItem(db, keys.user(userId), true);
  if (!item) throw notFound(`User ${userId} does not exist.`);
  try {
    await transact(db, [
      {
        Update: {
          TableName: db.table,
          Key: keys.user(userId),
          UpdateExpression: 'SET #admin = :admin',
          ConditionExpression: 'attribute_exists(PK)',
          ExpressionAttributeNames: { '#admin': 'admin' },
          ExpressionAttributeValues: { ':admin': admin },
        },
      },
      adminsChange(db, userId, admin),
    ]);
  } catch (error) {
    if (error instanceof TransactionFailed) {
      if (error.failedAt(0)) throw notFound(`User ${userId} does not exist.`);
      if (error.failedAt(1)) throw lastAdmin(userId);
    }
    throw error;
  }
  return { ...toUser(item), admin };
}

const lastAdmin = (userId: number) =>
  conflict(`User ${userId} is the last administrator; make someone else an administrator first.`);

/** The administrators' user ids (pattern 34). */
export async function adminIds(db: Db): Promise<number[]> {
  const item = await getItem(db, keys.admins(), true);
  return [...((item?.ids as Set<number> | undefined) ?? [])].map(Number).sort((a, b) => a - b);
}

/**
 * Disables or enables an account: the flag on the profile (read with the user by GET /user,
 * UserInfo, introspection, refresh and /v1) and on the login (read by every password check), in
 * one transaction. The profile must still have the email it was read with, so the login changed
 * is the user's own.
 */
export async function setEnabled(db: Db, userId: number, enabled: boolean): Promise<User> {
  const item = await getItem(db, keys.user(userId), true);
  if (!item) throw notFound(`User ${userId} does not exist.`);
  const user = toUser(item);
  const flag = enabled
    ? { UpdateExpression: 'REMOVE disabled' }
    : { UpdateExpression: 'SET disabled = :t', ExpressionAttributeValues: { ':t': true } };
  const values = (extra: Record<string, unknown>) => ({
    ExpressionAttributeValues: { ...(flag.ExpressionAttributeValues ?? {}), ...extra },
  });
  try {
    await transact(db, [
      {
        Update: {
          TableName: db.table,
          Key: keys.user(userId),
          UpdateExpression: flag.UpdateExpression,
          ConditionExpression: 'email = :e',
          ...values({ ':e': user.email }),
        },
      },
      {
        Update: {
          TableName: db.table,
          Key: keys.login(user.email),
          UpdateExpression: flag.UpdateExpression,
          ConditionExpression: 'userId = :id',
          ...values({ ':id': userId }),
        },
      },
    ]);
  } catch (error) {
    if (error instanceof TransactionFailed) throw conflict('The user changed meanwhile; try again.');
    throw error;
  }
  return { ...user, enabled };
}

/** How the directory is searched: by email prefix (pattern 32) or display-name prefix (33). */
export type DirectoryField = 'email' | 'name';

export interface DirectoryPage {
  users: User[];
  /** Where the next page starts (the index's last key), while there may be more. */
  next?: Record<string, unknown> | undefined;
}

/**
 * One page of the user directory: a Query on GSI1 in the index's order (email, or display name
 * then id), from `start` (the previous page's `next`). By email the profiles come with the index
 * (projection ALL); by name the entries name the users, whose profiles follow in one
 * BatchGetItem. The index is eventually consistent: a user created a moment ago may be missing.
 */
export async function directoryPage(
  db: Db,
  field: DirectoryField,
  prefix: string,
  limit: number,
  start?: Record<string, unknown>,
): Promise<DirectoryPage> {
  const partition = field === 'email' ? keys.directoryEmailPartition : keys.directoryNamePartition;
  const out = await db.doc.query({
    TableName: db.table,
    IndexName: GSI1,
    KeyConditionExpression: prefix ? 'GSI1PK = :pk AND begins_with(GSI1SK, :p)' : 'GSI1PK = :pk',
    ExpressionAttributeValues: { ':pk': partition, ...(prefix ? { ':p': prefix.toLowerCase() } : {}) },
    Limit: limit,
    ExclusiveStartKey: start,
  });
  const items = (out.Items ?? []) as Item[];
  let users: User[];
  if (field === 'email') users = items.map(toUser);
  else {
    const ids = items.map((i) => i.userId as number);
    const found = await usersByIds(db, ids);
    users = ids.flatMap((id) => found.get(id) ?? []);
  }
  return { users, ...(out.LastEvaluatedKey ? { next: out.LastEvaluatedKey } : {}) };
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
          'SET displayName = :n, email = :e, description = :d, website = :w, datePassword = :p, GSI1PK = :dir, GSI1SK = :e',
        ConditionExpression: 'attribute_exists(PK) AND email = :old',
        ExpressionAttributeValues: {
          ':n': next.displayName,
          ':e': next.email,
          ':dir': keys.userEmailGsi(next.email).GSI1PK,
          ':d': next.description ?? '',
          ':w': next.website ?? '',
          ':p': next.datePassword ?? next.createdAt,
          ':old': current.email,
        },
      },
    },
    nameEntryPut(db, next),
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
          // Everything the login carries (the disabled flag, say) moves with it; the new address
          // counts as verified: a user or an administrator set it (the portal only after a link).
          Item: {
            ...loginRest(login),
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
      if (moved && error.failedAt(3)) throw conflict('A user with this email already exists.', 'email');
      if (error.reasons.some((r) => r === 'ConditionalCheckFailed')) {
        throw conflict('The user changed meanwhile; try again.');
      }
    }
    throw error;
  }
  return next;
}

type TransactItem = Parameters<typeof transact>[1][number];

function loginRest(login: Item): Item {
  const { PK: _pk, SK: _sk, emailVerified: _verified, ...rest } = login;
  return rest;
}

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
  // The user's second factors live in their own partition (keys.ts pattern 30) and go too.
  const [partition, factors] = await Promise.all([
    queryPartition(db, keys.userPartition(userId)),
    queryPartition(db, keys.twoFactorPartition(userId)),
  ]);
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
    const alone = orgs.filter((o) => Number(o.owners ?? 0) <= 1);
    if (alone.length > 0) throw lastOwner(userId, alone.map(orgRef));
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
    { Delete: { TableName: db.table, Key: keys.userNameEntry(userId) } },
    // An administrator's id leaves the set; the last administrator cannot go (409).
    ...(user.admin ? [adminsChange(db, userId, false)] : []),
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
  const rest: TransactItem[] = [
    ...partition.filter((i) => i !== profile && !owned.includes(i)),
    ...factors,
  ].map((i) => ({ Delete: { TableName: db.table, Key: { PK: i.PK as string, SK: i.SK as string } } }));
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
      if (user.admin && error.failedAt(core.length - 1)) throw lastAdmin(userId);
      const ownerAt = ownerItems.findIndex((_, i) => i % 2 === 1 && error.failedAt(core.length + i));
      if (ownerAt >= 0) {
        const m = owned[(ownerAt - 1) / 2]!;
        throw lastOwner(userId, [{ id: m.orgId as number, name: m.orgName as string }]);
      }
      throw conflict('The user changed meanwhile; try again.');
    }
    throw error;
  }
}

/** An organization a user is the last owner of, as the refusal names it. */
export interface OwnedOrganization {
  id: number;
  name: string;
}

const orgRef = (item: Item): OwnedOrganization => ({ id: item.id as number, name: item.name as string });

/**
 * The refusal to delete an organization's last owner (409): it names every such organization,
 * so the person can hand each over (or delete it) before trying again.
 */
export class LastOwnerError extends AppError {
  /** `who`: whom the message is about, as its subject ("User 7 is", "You are"). */
  constructor(
    who: string,
    readonly organizations: OwnedOrganization[],
  ) {
    const names = organizations.map((o) => `${o.name} (${o.id})`).join(', ');
    const one = organizations.length === 1;
    super(
      'conflict',
      `${who} the last owner of ${one ? 'organization' : 'organizations'} ${names}; give ${one ? 'it' : 'each'} another owner or delete ${one ? 'it' : 'them'} first.`,
      { code: 'last_owner' },
    );
  }
}

const lastOwner = (userId: number, orgs: OwnedOrganization[]) =>
  new LastOwnerError(`User ${userId} is`, orgs);

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

/**
 * What a deleted user leaves outside their partition and is keyed by their id: second factors
 * (authenticator secret, recovery codes, passkeys) and the refresh-grant index (whose grants the
 * caller revoked first). Run after deleteUser; each item goes on its own, so running it again
 * finishes what a failure left.
 */
export async function forgetUser(db: Db, userId: number): Promise<void> {
  const parts = await Promise.all([
    queryPartition(db, keys.twoFactorPartition(userId)),
    queryPartition(db, keys.userGrantsPartition(userId)),
  ]);
  const rest = parts.flat().map((i) => ({ PK: i.PK as string, SK: i.SK as string }));
  for (let i = 0; i < rest.length; i += 25) {
    let pending = rest.slice(i, i + 25).map((Key) => ({ DeleteRequest: { Key } }));
    while (pending.length > 0) {
      const out = await db.doc.batchWrite({ RequestItems: { [db.table]: pending } });
      pending = (out.UnprocessedItems?.[db.table] ?? []) as typeof pending;
    }
  }
}
