import { config } from '../config.js';
import { randomToken, sha256 } from '../crypto.js';
import type { AuthMethod } from '../model.js';
import type { Db } from '../store/db.js';
import { createSession, deleteSession, type Session } from '../store/sessions.js';
import { hasSecondFactor, putTicket, readTwoFactor, type StoredPasskey } from '../store/two-factor.js';
import { nowSeconds } from '../time.js';
import { checkPassword } from './accounts.js';
import { methodsOf } from './two-factor.js';

/*
 * The portal's sign-in (also the OAuth authorization endpoint's, which sends people to the
 * portal's /signin): a password, then, for an account with two-factor on, a second step before
 * any session exists. This module carries no TOTP or WebAuthn library: the options a browser
 * needs for a passkey are plain JSON (WebAuthn §5.5), checked later by sign-in-verify.ts.
 */

/** A sign-in ticket lives 5 minutes: enough to open an app or touch a key, not to wander off. */
export const TICKET_SECONDS = 5 * 60;

/** PublicKeyCredentialRequestOptionsJSON (WebAuthn §5.5) for navigator.credentials.get(). */
export interface AssertionOptions {
  challenge: string;
  rpId: string;
  timeout: number;
  userVerification: 'required' | 'preferred';
  allowCredentials: { id: string; type: 'public-key'; transports?: string[] }[];
}

function assertionOptions(
  challenge: string,
  rpId: string,
  allow: StoredPasskey[],
  userVerification: 'required' | 'preferred',
): AssertionOptions {
  return {
    challenge,
    rpId,
    timeout: TICKET_SECONDS * 1000,
    userVerification,
    allowCredentials: allow.map((p) => ({
      id: p.id,
      type: 'public-key',
      ...(p.transports.length > 0 ? { transports: p.transports } : {}),
    })),
  };
}

export type SignInOutcome =
  | { kind: 'session'; id: string; session: Session }
  | {
      kind: 'second-factor';
      ticket: string;
      methods: ('totp' | 'recovery' | 'passkey')[];
      passkey?: AssertionOptions | undefined;
    };

/**
 * Starts a NEW session (no session fixation: a session id planted before sign-in is worth
 * nothing); a session the browser already had is ended.
 */
export async function startSession(
  db: Db,
  userId: number,
  previous: Session | undefined,
  amr: readonly AuthMethod[],
): Promise<{ id: string; session: Session }> {
  if (previous) await deleteSession(db, previous);
  return createSession(db, userId, config().sessionIdleTtl, amr);
}

/**
 * Checks the password (with the brute-force guard); an account without a second factor gets its
 * session at once, one with two-factor on a ticket for the second step (and the passkey
 * challenge when it has passkeys). The ticket is worth nothing without the second factor.
 */
export async function passwordSignIn(
  db: Db,
  email: string,
  password: string,
  previous: Session | undefined,
  rpId: string,
): Promise<SignInOutcome> {
  const userId = await checkPassword(db, email, password);
  const record = await readTwoFactor(db, userId);
  if (!hasSecondFactor(record))
    return { kind: 'session', ...(await startSession(db, userId, previous, ['pwd'])) };
  const ticket = randomToken(32);
  const challenge = record.passkeys.length > 0 ? randomToken(32) : undefined;
  await putTicket(db, {
    digest: sha256(ticket),
    userId,
    email: email.trim().toLowerCase(),
    challenge,
    expiresAt: nowSeconds() + TICKET_SECONDS,
  });
  return {
    kind: 'second-factor',
    ticket,
    methods: methodsOf(record),
    passkey: challenge ? assertionOptions(challenge, rpId, record.passkeys, 'preferred') : undefined,
  };
}

/**
 * A passkey sign-in without an email: a challenge for any of this site's passkeys (discoverable
 * credentials; the browser lets the person pick one). User verification is required, so the
 * passkey is two factors by itself.
 */
export async function passkeySignInOptions(
  db: Db,
  rpId: string,
): Promise<{ ticket: string; passkey: AssertionOptions }> {
  const ticket = randomToken(32);
  const challenge = randomToken(32);
  await putTicket(db, { digest: sha256(ticket), challenge, expiresAt: nowSeconds() + TICKET_SECONDS });
  return { ticket, passkey: assertionOptions(challenge, rpId, [], 'required') };
}

/** The password grant's question: does this account need a second factor it cannot give here? */
export async function needsSecondFactor(db: Db, userId: number): Promise<boolean> {
  return hasSecondFactor(await readTwoFactor(db, userId));
}
