import { randomToken, sha256 } from '../crypto.js';
import { nowSeconds } from '../time.js';
import type { Db } from './db.js';
import { keys } from './keys.js';
import { getItem, queryGsi1, writtenIf } from './ops.js';

/**
 * A portal session. The browser holds a random id; the table holds only its SHA-256 digest, the
 * user, whom the user acts for (an organization, or nobody for the personal session), a CSRF
 * token, and an expiry that slides with activity.
 */
export interface Session {
  digest: string;
  userId: number;
  /** The organization the user acts on behalf of, if any. */
  actingOrgId?: number | undefined;
  csrfToken: string;
  expiresAt: number;
  /** When the user signed in (epoch seconds; OIDC `auth_time`). Absent on older sessions. */
  authTime?: number | undefined;
  /** How the user signed in (RFC 8176 values; the ID token's `amr`). Absent on older sessions. */
  amr?: string[] | undefined;
}

export async function createSession(
  db: Db,
  userId: number,
  idleSeconds: number,
  amr?: readonly string[],
): Promise<{ id: string; session: Session }> {
  const id = randomToken(32);
  const session: Session = {
    digest: sha256(id),
    userId,
    csrfToken: randomToken(24),
    expiresAt: nowSeconds() + idleSeconds,
    authTime: nowSeconds(),
    ...(amr ? { amr: [...amr] } : {}),
  };
  await db.doc.put({
    TableName: db.table,
    Item: {
      ...keys.session(session.digest),
      ...keys.userSessionsGsi(userId, session.digest),
      type: 'session',
      ...session,
    },
    ConditionExpression: 'attribute_not_exists(PK)',
  });
  return { id, session };
}

/** The live session for a cookie value; an expired item counts as absent (TTL deletes lazily). */
export async function getSession(db: Db, id: string | undefined): Promise<Session | undefined> {
  if (!id || id.length > 100) return undefined;
  const item = await getItem(db, keys.session(sha256(id)));
  if (!item || Number(item.expiresAt) <= nowSeconds()) return undefined;
  return {
    digest: item.digest as string,
    userId: item.userId as number,
    actingOrgId: item.actingOrgId as number | undefined,
    csrfToken: item.csrfToken as string,
    expiresAt: Number(item.expiresAt),
    authTime: item.authTime as number | undefined,
    amr: item.amr as string[] | undefined,
  };
}

/**
 * Slides the expiry forward. To spare a write on every request, only when a tenth of the idle
 * time has passed since the last extension.
 */
export async function touchSession(db: Db, session: Session, idleSeconds: number): Promise<void> {
  const next = nowSeconds() + idleSeconds;
  if (next - session.expiresAt < idleSeconds / 10) return;
  // Gone meanwhile (the condition failed): nothing to update.
  await writtenIf(
    db.doc.update({
      TableName: db.table,
      Key: keys.session(session.digest),
      UpdateExpression: 'SET expiresAt = :e',
      ConditionExpression: 'attribute_exists(PK)',
      ExpressionAttributeValues: { ':e': next },
    }),
  );
}

/** Switches whom the session acts for: an organization id, or undefined for the personal session. */
export async function setActingOrg(db: Db, session: Session, orgId: number | undefined): Promise<void> {
  await db.doc.update({
    TableName: db.table,
    Key: keys.session(session.digest),
    ConditionExpression: 'attribute_exists(PK)',
    ...(orgId === undefined
      ? { UpdateExpression: 'REMOVE actingOrgId' }
      : { UpdateExpression: 'SET actingOrgId = :o', ExpressionAttributeValues: { ':o': orgId } }),
  });
}

export async function deleteSession(db: Db, session: Session): Promise<void> {
  await db.doc.delete({ TableName: db.table, Key: keys.session(session.digest) });
}

/**
 * Ends every session of a user (a password reset, a disabled or deleted account), or every one
 * but `except` (the caller's own), found through GSI1 (keys.ts pattern 25). The index is
 * eventually consistent: a session started a moment before may survive, but the reset also
 * changed the password it was started with.
 */
export async function deleteUserSessions(db: Db, userId: number, except?: string): Promise<number> {
  const items = (await queryGsi1(db, keys.userSessionsPartition(userId))).filter((i) => i.digest !== except);
  await Promise.all(
    items.map((i) => db.doc.delete({ TableName: db.table, Key: keys.session(i.digest as string) })),
  );
  return items.length;
}

/** A live session of a user, as the account page lists it (never the cookie's value). */
export interface SessionSummary {
  digest: string;
  /** Sign-in time (epoch seconds); absent on sessions older than the field. */
  authTime?: number | undefined;
  expiresAt: number;
}

/**
 * A user's live sessions (pattern 25; the index projects every attribute, so one Query). The
 * request path never uses this: a session is still read by its digest alone (pattern 14).
 */
export async function userSessions(db: Db, userId: number): Promise<SessionSummary[]> {
  const now = nowSeconds();
  return (await queryGsi1(db, keys.userSessionsPartition(userId)))
    .filter((i) => Number(i.expiresAt) > now && i.userId === userId)
    .map((i) => ({
      digest: i.digest as string,
      authTime: i.authTime as number | undefined,
      expiresAt: Number(i.expiresAt),
    }));
}

/** Ends one session of a user's; false when none of theirs has this digest. */
export async function deleteUserSession(db: Db, userId: number, digest: string): Promise<boolean> {
  return writtenIf(
    db.doc.delete({
      TableName: db.table,
      Key: keys.session(digest),
      ConditionExpression: 'userId = :id',
      ExpressionAttributeValues: { ':id': userId },
    }),
  );
}
