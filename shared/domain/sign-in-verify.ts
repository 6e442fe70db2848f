import { sha256 } from '../crypto.js';
import { AppError, invalid } from '../errors.js';
import type { Db } from '../store/db.js';
import type { Session } from '../store/sessions.js';
import { getPasskey, getTicket, takeTicket, touchPasskey } from '../store/two-factor.js';
import { getUser } from '../store/users.js';
import { assertionJson, checkAssertion, type RelyingParty, userIdOfHandle } from './passkeys.js';
import { startSession } from './sign-in.js';
import { verifySecondFactorCode } from './totp.js';
import { codeField, refuseIfLocked, TICKET_GONE, wrongCode } from './two-factor.js';

const PASSKEY_REFUSED = 'This passkey was not accepted; try again or use another way to sign in.';

const ticketGone = () => new AppError('unauthorized', TICKET_GONE, { code: 'sign_in_expired' });

/**
 * Finishes a sign-in with its ticket: a code (authenticator app or recovery code) or a passkey
 * assertion after the password, or a passkey assertion alone (a ticket from
 * passkeySignInOptions). Wrong codes and refused passkeys after a password count toward the
 * email's brute-force guard. The ticket is used once; only then does a session start.
 */
export async function completeSignIn(
  db: Db,
  input: { ticket: unknown; code?: unknown; credential?: unknown },
  rp: RelyingParty,
  previous: Session | undefined,
): Promise<{ id: string; session: Session }> {
  if (typeof input.ticket !== 'string' || input.ticket === '' || input.ticket.length > 100) {
    throw invalid('ticket is required: start with POST /api/session.', 'ticket');
  }
  const ticket = await getTicket(db, sha256(input.ticket));
  if (!ticket) throw ticketGone();

  if (input.credential !== undefined) {
    const response = assertionJson(input.credential);
    if (!ticket.challenge) throw invalid('This account has no passkey; enter a code instead.', 'credential');
    const handleUser = userIdOfHandle(response.response?.userHandle);
    const userId = ticket.userId ?? handleUser;
    const refuse = async (): Promise<never> => {
      if (ticket.email) return wrongCode(db, ticket.email, PASSKEY_REFUSED);
      throw new AppError('unauthorized', PASSKEY_REFUSED, { code: 'invalid_passkey', field: 'credential' });
    };
    if (ticket.email) await refuseIfLocked(db, ticket.email);
    if (
      userId === undefined ||
      (ticket.userId !== undefined && handleUser !== undefined && handleUser !== userId)
    ) {
      return refuse();
    }
    const [passkey, user] = await Promise.all([getPasskey(db, userId, response.id), getUser(db, userId)]);
    // An account an administrator disabled signs in no way at all (a password check refuses it too).
    if (!passkey || !user || user.enabled === false) return refuse();
    const counter = await checkAssertion(
      response,
      ticket.challenge,
      passkey,
      rp,
      ticket.userId === undefined,
    );
    if (counter === undefined) return refuse();
    if (!(await takeTicket(db, ticket.digest))) throw ticketGone();
    await touchPasskey(db, userId, passkey.id, counter);
    // RFC 8176 (oidc/claims.ts): a passkey after the password, or alone with user verification.
    return startSession(db, userId, previous, ticket.email ? ['pwd', 'mfa'] : ['mfa']);
  }

  if (ticket.userId === undefined || !ticket.email) {
    throw invalid('This sign-in takes a passkey.', 'credential');
  }
  await verifySecondFactorCode(db, ticket.userId, ticket.email, codeField(input.code));
  if (!(await takeTicket(db, ticket.digest))) throw ticketGone();
  return startSession(db, ticket.userId, previous, ['pwd', 'otp', 'mfa']);
}
