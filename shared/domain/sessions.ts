import type { Db } from '../store/db.js';
import { deleteSession, type Session, setActingOrg } from '../store/sessions.js';
import { requireMember } from './permissions-policy.js';

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
