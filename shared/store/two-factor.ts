import { nowSeconds } from '../time.js';
import type { Db } from './db.js';
import { type Key, keys } from './keys.js';
import { getItem, type Item, queryPartition, TransactionFailed, transact, writtenIf } from './ops.js';

/**
 * A user's second factors (keys.ts pattern 30), in their own partition `MFA#<userId>`: the
 * authenticator app's secret (already encrypted by the domain; this module never sees it in the
 * clear), the recovery codes' SHA-256 digests, the passkeys (WebAuthn public keys), and the
 * enrolments under way. A sign-in reads the whole partition in one consistent Query.
 */
export interface StoredPasskey {
  /** The credential id, base64url (WebAuthn `rawId`). */
  id: string;
  /** COSE public key, base64url. */
  publicKey: string;
  counter: number;
  transports: string[];
  name: string;
  createdAt: number;
  lastUsedAt?: number | undefined;
}

export interface TwoFactorRecord {
  totp?: { secret: string; enabledAt: number; lastStep: number } | undefined;
  pendingTotp?: { secret: string; expiresAt: number } | undefined;
  recovery: string[];
  passkeys: StoredPasskey[];
  pendingPasskey?: { challenge: string; expiresAt: number } | undefined;
}

const toPasskey = (i: Item): StoredPasskey => ({
  id: i.credentialId as string,
  publicKey: i.publicKey as string,
  counter: Number(i.counter ?? 0),
  transports: (i.transports as string[] | undefined) ?? [],
  name: (i.name as string | undefined) ?? 'Passkey',
  createdAt: Number(i.createdAt),
  lastUsedAt: i.lastUsedAt === undefined ? undefined : Number(i.lastUsedAt),
});

/** Everything about a user's second factors, in one consistent Query; expired enrolments are absent. */
export async function readTwoFactor(db: Db, userId: number): Promise<TwoFactorRecord> {
  const items = await queryPartition(db, keys.twoFactorPartition(userId));
  const now = nowSeconds();
  const at = (sk: string) => items.find((i) => i.SK === sk);
  const live = (i: Item | undefined) => (i && Number(i.expiresAt) > now ? i : undefined);
  const totp = at('TOTP');
  const pendingTotp = live(at('TOTP#PENDING'));
  const pendingPasskey = live(at('PASSKEY#PENDING'));
  const recovery = at('RECOVERY');
  return {
    totp: totp
      ? {
          secret: totp.secret as string,
          enabledAt: Number(totp.enabledAt),
          lastStep: Number(totp.lastStep ?? 0),
        }
      : undefined,
    pendingTotp: pendingTotp
      ? { secret: pendingTotp.secret as string, expiresAt: Number(pendingTotp.expiresAt) }
      : undefined,
    recovery: recovery?.codes ? [...(recovery.codes as Set<string>)] : [],
    passkeys: items
      .filter((i) => (i.SK as string).startsWith(keys.passkeyPrefix) && i.SK !== 'PASSKEY#PENDING')
      .map(toPasskey)
      .sort((a, b) => a.createdAt - b.createdAt),
    pendingPasskey: pendingPasskey
      ? { challenge: pendingPasskey.challenge as string, expiresAt: Number(pendingPasskey.expiresAt) }
      : undefined,
  };
}

/** Whether a user has any second factor: the cheap question the password grant asks. */
export function hasSecondFactor(record: TwoFactorRecord): boolean {
  return record.totp !== undefined || record.passkeys.length > 0;
}

/** An enrolment under way (an encrypted TOTP secret, or a WebAuthn registration challenge). */
export async function putPending(
  db: Db,
  userId: number,
  what: 'TOTP#PENDING' | 'PASSKEY#PENDING',
  fields: { secret?: string; challenge?: string },
  expiresAt: number,
): Promise<void> {
  await db.doc.put({
    TableName: db.table,
    Item: { ...keys.twoFactor(userId, what), type: 'twoFactorPending', userId, ...fields, expiresAt },
  });
}

const recoveryPut = (db: Db, userId: number, digests: string[]) => ({
  Put: {
    TableName: db.table,
    Item: { ...keys.twoFactor(userId, 'RECOVERY'), type: 'recoveryCodes', userId, codes: new Set(digests) },
  },
});

/** Takes the pending enrolment if it is still the one read (so it is used once). */
const takePending = (db: Db, key: Key, field: 'secret' | 'challenge', value: string) => ({
  Delete: {
    TableName: db.table,
    Key: key,
    ConditionExpression: '#f = :v AND expiresAt > :now',
    ExpressionAttributeNames: { '#f': field },
    ExpressionAttributeValues: { ':v': value, ':now': nowSeconds() },
  },
});

/**
 * Turns the pending TOTP secret into the account's, with the step of the confirming code (so
 * that code cannot be used again to sign in) and, when given, new recovery codes: one
 * transaction. False when the enrolment was confirmed or replaced meanwhile.
 */
export async function enableTotp(
  db: Db,
  userId: number,
  secret: string,
  step: number,
  recoveryDigests: string[] | undefined,
): Promise<boolean> {
  try {
    await transact(db, [
      takePending(db, keys.twoFactor(userId, 'TOTP#PENDING'), 'secret', secret),
      {
        Put: {
          TableName: db.table,
          Item: {
            ...keys.twoFactor(userId, 'TOTP'),
            type: 'totp',
            userId,
            secret,
            enabledAt: nowSeconds(),
            lastStep: step,
          },
        },
      },
      ...(recoveryDigests ? [recoveryPut(db, userId, recoveryDigests)] : []),
    ]);
    return true;
  } catch (error) {
    if (error instanceof TransactionFailed && error.failedAt(0)) return false;
    throw error;
  }
}

/**
 * Records the step of an accepted TOTP code, only if it is later than the last one accepted:
 * RFC 6238 §5.2, a verifier must not accept the same code twice. False when it was used already.
 */
export async function useTotpStep(db: Db, userId: number, step: number): Promise<boolean> {
  return writtenIf(
    db.doc.update({
      TableName: db.table,
      Key: keys.twoFactor(userId, 'TOTP'),
      UpdateExpression: 'SET lastStep = :s',
      ConditionExpression: 'attribute_exists(PK) AND (attribute_not_exists(lastStep) OR lastStep < :s)',
      ExpressionAttributeValues: { ':s': step },
    }),
  );
}

/** Removes one recovery code if it is still there: of two uses of one code, exactly one wins. */
export async function useRecoveryCode(db: Db, userId: number, digest: string): Promise<boolean> {
  return writtenIf(
    db.doc.update({
      TableName: db.table,
      Key: keys.twoFactor(userId, 'RECOVERY'),
      UpdateExpression: 'DELETE codes :c',
      ConditionExpression: 'contains(codes, :d)',
      ExpressionAttributeValues: { ':c': new Set([digest]), ':d': digest },
    }),
  );
}

/** Replaces the recovery codes (the old ones stop working at once). */
export async function replaceRecoveryCodes(db: Db, userId: number, digests: string[]): Promise<void> {
  await db.doc.put(recoveryPut(db, userId, digests).Put);
}

/**
 * Turns the authenticator app off; when it was the last second factor (`last`), the recovery
 * codes go with it, since they would recover nothing.
 */
export async function disableTotp(db: Db, userId: number, last: boolean): Promise<void> {
  await transact(db, [
    { Delete: { TableName: db.table, Key: keys.twoFactor(userId, 'TOTP') } },
    ...(last ? [{ Delete: { TableName: db.table, Key: keys.twoFactor(userId, 'RECOVERY') } }] : []),
  ]);
}

/** Stores a registered passkey, taking the registration's challenge (used once), with new recovery codes when given. */
export async function addPasskey(
  db: Db,
  userId: number,
  challenge: string,
  passkey: StoredPasskey,
  recoveryDigests: string[] | undefined,
): Promise<boolean> {
  try {
    await transact(db, [
      takePending(db, keys.twoFactor(userId, 'PASSKEY#PENDING'), 'challenge', challenge),
      {
        Put: {
          TableName: db.table,
          Item: {
            ...keys.passkey(userId, passkey.id),
            type: 'passkey',
            userId,
            credentialId: passkey.id,
            publicKey: passkey.publicKey,
            counter: passkey.counter,
            transports: passkey.transports,
            name: passkey.name,
            createdAt: passkey.createdAt,
          },
          ConditionExpression: 'attribute_not_exists(PK)',
        },
      },
      ...(recoveryDigests ? [recoveryPut(db, userId, recoveryDigests)] : []),
    ]);
    return true;
  } catch (error) {
    if (error instanceof TransactionFailed && (error.failedAt(0) || error.failedAt(1))) return false;
    throw error;
  }
}

/** One passkey of a user (a passwordless sign-in names its user and credential). */
export async function getPasskey(
  db: Db,
  userId: number,
  credentialId: string,
): Promise<StoredPasskey | undefined> {
  if (credentialId.length > 1400) return undefined;
  const item = await getItem(db, keys.passkey(userId, credentialId), true);
  return item ? toPasskey(item) : undefined;
}

/** Records a passkey's use: its signature counter (WebAuthn §6.1.1) and when. */
export async function touchPasskey(
  db: Db,
  userId: number,
  credentialId: string,
  counter: number,
): Promise<void> {
  // Gone meanwhile (the condition failed): nothing to update.
  await writtenIf(
    db.doc.update({
      TableName: db.table,
      Key: keys.passkey(userId, credentialId),
      UpdateExpression: 'SET #c = :c, lastUsedAt = :now',
      ConditionExpression: 'attribute_exists(PK)',
      ExpressionAttributeNames: { '#c': 'counter' },
      ExpressionAttributeValues: { ':c': counter, ':now': nowSeconds() },
    }),
  );
}

/** Removes a passkey (and the recovery codes when it was the last second factor). False when unknown. */
export async function removePasskey(
  db: Db,
  userId: number,
  credentialId: string,
  last: boolean,
): Promise<boolean> {
  try {
    await transact(db, [
      {
        Delete: {
          TableName: db.table,
          Key: keys.passkey(userId, credentialId),
          ConditionExpression: 'attribute_exists(PK)',
        },
      },
      ...(last ? [{ Delete: { TableName: db.table, Key: keys.twoFactor(userId, 'RECOVERY') } }] : []),
    ]);
    return true;
  } catch (error) {
    if (error instanceof TransactionFailed && error.failedAt(0)) return false;
    throw error;
  }
}

/**
 * A sign-in ticket (pattern 31): a password that matched, waiting for its second factor
 * (`userId`, `email`), or a passkey sign-in's challenge (no user yet). Only the digest of the
 * value the browser holds is stored; it lives 5 minutes.
 */
export interface SignInTicket {
  digest: string;
  userId?: number | undefined;
  email?: string | undefined;
  /** The WebAuthn challenge (base64url) an assertion must sign. */
  challenge?: string | undefined;
  expiresAt: number;
}

export async function putTicket(db: Db, ticket: SignInTicket): Promise<void> {
  await db.doc.put({
    TableName: db.table,
    Item: { ...keys.signInTicket(ticket.digest), type: 'signInTicket', ...ticket },
    ConditionExpression: 'attribute_not_exists(PK)',
  });
}

/** The live ticket for a digest; an expired one counts as absent (TTL deletes lazily). */
export async function getTicket(db: Db, digest: string): Promise<SignInTicket | undefined> {
  const item = await getItem(db, keys.signInTicket(digest), true);
  if (!item || Number(item.expiresAt) <= nowSeconds()) return undefined;
  return {
    digest,
    userId: item.userId as number | undefined,
    email: item.email as string | undefined,
    challenge: item.challenge as string | undefined,
    expiresAt: Number(item.expiresAt),
  };
}

/** Uses a ticket up: of two completions racing, exactly one gets `true`. */
export async function takeTicket(db: Db, digest: string): Promise<boolean> {
  return writtenIf(
    db.doc.delete({
      TableName: db.table,
      Key: keys.signInTicket(digest),
      ConditionExpression: 'expiresAt > :now',
      ExpressionAttributeValues: { ':now': nowSeconds() },
    }),
  );
}
