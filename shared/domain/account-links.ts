import bcrypt from 'bcryptjs';
import { config } from '../config.js';
import { randomToken, sha256 } from '../crypto.js';
import { conflict, invalid, tooMany } from '../errors.js';
import { logger } from '../log.js';
import { markVerified, putLink, takeLink, userGrantIds } from '../store/account-links.js';
import type { Db } from '../store/db.js';
import { clearFailures, withinRate } from '../store/guard.js';
import { deleteUserSessions } from '../store/sessions.js';
import { revokeGrant } from '../store/tokens.js';
import { getLogin, requireUser, updateUser } from '../store/users.js';
import { nowSeconds } from '../time.js';
import {
  accountLink,
  emailChangeMail,
  emailChangeNotice,
  type LinkPurpose,
  type Mailer,
  resetMail,
  verificationMail,
} from './mail.js';
import { reauthenticate } from './two-factor.js';
import * as v from './validate.js';

/**
 * E-mail verification and password reset. Links carry a random 256-bit token; only
 * its SHA-256 digest is stored. The public requests ("send me a link") answer the same whether
 * or not an account has the address, and are rate-limited per address and per client address.
 */
export const LINK_TTL: Readonly<Record<LinkPurpose, number>> = {
  verify: 24 * 3600,
  reset: 3600,
  email: 24 * 3600,
};

/** At most 5 links per address and 20 per client address per hour, for each purpose. */
export const MAIL_RATE = { perAddress: 5, perClient: 20, windowSeconds: 3600 } as const;

export const LINK_SENT = 'If an account has this address, we have emailed it a link.';
export const TOO_MANY_MAILS =
  'Too many requests for this address or from your network; try again in an hour.';
const LINK_INVALID = 'This link is not valid or was already used; ask for a new one.';
const LINK_EXPIRED = 'This link has expired; ask for a new one.';

function publicUrl(): string {
  // Never the request's Host header: a forged one would send people a link to someone else.
  const url = config().publicUrl;
  if (!url) throw new Error('Configuration error: IDM_PUBLIC_URL must be set to send links by mail.');
  return url;
}

async function mailLink(db: Db, mailer: Mailer, purpose: LinkPurpose, userId: number, email: string) {
  const token = randomToken(32);
  await putLink(db, {
    digest: sha256(token),
    purpose,
    userId,
    email,
    expiresAt: nowSeconds() + LINK_TTL[purpose],
  });
  const link = accountLink(publicUrl(), purpose, token);
  const compose = { verify: verificationMail, reset: resetMail, email: emailChangeMail }[purpose];
  await mailer.send(compose(email, link));
}

/**
 * After a portal sign-up: the new account's first verification link. The account exists either
 * way, so a mail failure is logged, not thrown: the person asks for a new link from the sign-in
 * page. Returns whether the mail went out.
 */
export async function sendVerification(db: Db, mailer: Mailer, user: { id: number; email: string }) {
  try {
    await mailLink(db, mailer, 'verify', user.id, user.email);
    return true;
  } catch (error) {
    logger.error('sending the verification mail failed', { userId: user.id, error: error as Error });
    return false;
  }
}

async function limit(db: Db, purpose: 'verify' | 'reset', email: string, clientIp: string): Promise<void> {
  const [address, client] = await Promise.all([
    withinRate(db, purpose, `email#${email}`, MAIL_RATE.perAddress, MAIL_RATE.windowSeconds),
    withinRate(db, purpose, `ip#${clientIp}`, MAIL_RATE.perClient, MAIL_RATE.windowSeconds),
  ]);
  if (!address || !client) throw tooMany(TOO_MANY_MAILS);
}

/**
 * "Send me a link": a verification link again (only to an unverified account) or a password
 * reset link (to any account). Unknown addresses get the same answer and no mail.
 */
export async function requestLink(
  db: Db,
  mailer: Mailer,
  purpose: 'verify' | 'reset',
  emailInput: unknown,
  clientIp: string,
): Promise<void> {
  const email = v.email(emailInput);
  await limit(db, purpose, email, clientIp);
  const login = await getLogin(db, email);
  if (!login || (purpose === 'verify' && login.emailVerified)) return;
  await mailLink(db, mailer, purpose, login.userId, email);
}

async function take(db: Db, tokenInput: unknown, purpose: LinkPurpose) {
  if (typeof tokenInput !== 'string' || tokenInput.length < 10 || tokenInput.length > 200) {
    throw invalid(LINK_INVALID, 'token');
  }
  const taken = await takeLink(db, sha256(tokenInput), purpose);
  if (!taken.ok) throw invalid(taken.reason === 'expired' ? LINK_EXPIRED : LINK_INVALID, 'token');
  return taken.link;
}

/** Follows a verification link: the account may sign in from now on. */
export async function confirmEmail(db: Db, tokenInput: unknown): Promise<{ email: string }> {
  const link = await take(db, tokenInput, 'verify');
  // The account changed its address (or is gone) since the link was sent.
  if (!(await markVerified(db, link.email, link.userId))) throw invalid(LINK_INVALID, 'token');
  return { email: link.email };
}

/**
 * Follows a reset link with a new password (the sign-up rules): sets it, marks the address
 * verified (the link proved the mailbox), clears failed sign-ins, ends every portal session and
 * revokes every grant holding refresh tokens (with their access tokens).
 */
export async function resetPassword(
  db: Db,
  tokenInput: unknown,
  passwordInput: unknown,
  bcryptCost: number,
): Promise<{ email: string; sessionsEnded: number; grantsRevoked: number }> {
  // The password is checked first, so a typo does not spend the link.
  const password = v.password(passwordInput);
  const link = await take(db, tokenInput, 'reset');
  const user = await requireUser(db, link.userId).catch(() => undefined);
  if (!user || user.email !== link.email) throw invalid(LINK_INVALID, 'token');
  await updateUser(db, user, { passwordHash: await bcrypt.hash(password, bcryptCost) });
  const [sessionsEnded, grants] = await Promise.all([
    deleteUserSessions(db, user.id),
    userGrantIds(db, user.id),
    markVerified(db, user.email, user.id),
    clearFailures(db, user.email),
  ]);
  await Promise.all(grants.map((g) => revokeGrant(db, g)));
  return { email: user.email, sessionsEnded, grantsRevoked: grants.length };
}

/** At most 5 address changes asked for per account per hour (each mails a stranger's address). */
export const EMAIL_CHANGE_RATE = { perAccount: 5, windowSeconds: 3600 } as const;

/**
 * Account settings' "change e-mail": asks the password again (through the brute-force guard),
 * then mails a link to the NEW address; the account keeps its old address until the link is
 * followed, so a typo or a mailbox the person does not hold changes nothing. An address another
 * account uses is refused here (409) as PATCH /v1/users refuses it, and again when the link is
 * followed (it may have been taken meanwhile).
 */
export async function requestEmailChange(
  db: Db,
  mailer: Mailer,
  userId: number,
  input: { email?: unknown; password?: unknown },
): Promise<{ email: string }> {
  const email = v.email(input.email);
  const user = await requireUser(db, userId);
  if (email === user.email) throw invalid('This is already your email address.', 'email');
  await reauthenticate(db, userId, input.password);
  const allowed = await withinRate(
    db,
    'email',
    `user#${userId}`,
    EMAIL_CHANGE_RATE.perAccount,
    EMAIL_CHANGE_RATE.windowSeconds,
  );
  if (!allowed) throw tooMany('Too many address changes for this account; try again in an hour.');
  if (await getLogin(db, email)) throw conflict('A user with this email already exists.', 'email');
  await mailLink(db, mailer, 'email', userId, email);
  // The current address hears of it too; the change is already on its way, so a failure is logged.
  await mailer.send(emailChangeNotice(user.email, email)).catch((error: unknown) => {
    logger.error('sending the address-change notice failed', { userId, error: error as Error });
  });
  return { email };
}

/**
 * Follows an address-change link: the account's email (its login, its profile, the directory)
 * becomes the address the link was sent to, which counts as verified (the link proved it).
 */
export async function confirmEmailChange(db: Db, tokenInput: unknown): Promise<{ email: string }> {
  const link = await take(db, tokenInput, 'email');
  const user = await requireUser(db, link.userId).catch(() => undefined);
  if (!user) throw invalid(LINK_INVALID, 'token');
  if (user.email === link.email) return { email: user.email };
  const changed = await updateUser(db, user, { email: link.email });
  return { email: changed.email };
}
