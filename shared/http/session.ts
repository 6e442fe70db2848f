import { config } from '../config.js';
import { constantTimeEqual } from '../crypto.js';
import { forbidden, unauthorized } from '../errors.js';
import type { Db } from '../store/db.js';
import { getSession, type Session, touchSession } from '../store/sessions.js';
import { cookies } from './request.js';
import type { HttpEvent } from './types.js';

/**
 * The session cookie. Over HTTPS it is `__Host-` prefixed (Secure, Path=/, no Domain: it cannot
 * be set or shadowed by a sibling subdomain); on plain-HTTP localhost the prefix is not allowed.
 */
export function sessionCookieName(): string {
  return config().secureCookies ? '__Host-gatehouse_session' : 'gatehouse_session';
}

export function sessionCookie(id: string): string {
  const secure = config().secureCookies ? '; Secure' : '';
  return `${sessionCookieName()}=${id}; Path=/; HttpOnly; SameSite=Lax${secure}; Max-Age=${config().sessionIdleTtl}`;
}

export function clearedSessionCookie(): string {
  const secure = config().secureCookies ? '; Secure' : '';
  return `${sessionCookieName()}=; Path=/; HttpOnly; SameSite=Lax${secure}; Max-Age=0`;
}

export function sessionId(event: HttpEvent): string | undefined {
  return cookies(event).get(sessionCookieName());
}

/** The caller's live session (sliding its expiry), or undefined. */
export async function currentSession(db: Db, event: HttpEvent): Promise<Session | undefined> {
  const session = await getSession(db, sessionId(event));
  if (session) await touchSession(db, session, config().sessionIdleTtl);
  return session;
}

export async function requireSession(db: Db, event: HttpEvent): Promise<Session> {
  const session = await currentSession(db, event);
  if (!session) throw unauthorized('Sign in first.');
  return session;
}

/**
 * CSRF protection for state-changing requests: the token from the session must come back in the
 * `X-CSRF-Token` header (JSON API) or a `csrf_token` form field (server-rendered forms). A
 * cross-site page can send the cookie but cannot read the token. SameSite=Lax is the second line.
 */
export function requireCsrf(session: Session, provided: string | undefined): void {
  if (!provided || !constantTimeEqual(provided, session.csrfToken)) {
    throw forbidden('The request is missing a valid CSRF token; reload the page and try again.');
  }
}
