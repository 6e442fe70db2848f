import { config } from '../config.js';
import type { Db } from '../store/db.js';
import { createSession, deleteSession, type Session, setActingOrg } from '../store/sessions.js';
import { checkPassword } from './accounts.js';
import { requireMember } from './permissions-policy.js';

/**
 * Signs in: checks the password (with the brute-force guard) and starts a NEW session, so a
 * session id planted before sign-in is worth nothing (no session fixation); a session the
 * browser already had is ended. Returns the cookie's value, which is stored only as a digest.
 */
export async function signIn(
  db: Db,
  email: string,
  password: string,
  previous: Session | undefined,
): Promise<{ id: string; session: Session }> {
  const userId = await checkPassword(db, email, password);
  if (previous) await deleteSession(db, previous);
  return createSession(db, userId, config().sessionIdleTtl);
}

/** Signs out: the session is deleted on the server, not only its cookie. */
export function signOut(db: Db, session: Session): Promise<void> {
  return deleteSession(db, session);
}

/** Acts on behalf of an organization the user belongs to, or (undefined) as oneself again. */
export async function actFor(db: Db, session: Session, orgId: number | undefined): Promise<Session> {
  if (orgId !== undefined) await requireMember(db, orgId, session.userId);
  await setActingOrg(db, session, orgId);
  return { ...session, actingOrgId: orgId };
}
