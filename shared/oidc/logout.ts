import { constantTimeEqual } from '../crypto.js';
import { AppError } from '../errors.js';
import { type Client, getClient } from '../store/applications.js';
import type { Db } from '../store/db.js';
import { deleteSession, type Session } from '../store/sessions.js';
import { subjectOf } from './claims.js';

/**
 * OpenID Connect RP-Initiated Logout 1.0 at /oauth2/logout (GET and POST, §2). What it answers;
 * the HTTP layer renders it (shared/http/pages/oauth-pages.ts):
 * - `signed-out`: the session is ended (or there was none) and the cookie is cleared; the browser
 *   goes to `redirect` when the client registered that exact post-logout URI (§3), else it sees a
 *   plain "You are signed out" page;
 * - `confirm`: a session would end on a request that does not prove the relying party sent it
 *   (no valid `id_token_hint` for the signed-in user), so the user is asked first (§6: such
 *   requests are a means of denial of service). The page posts back here with the session's CSRF
 *   token, so a cross-site GET or POST can at worst show that question.
 */
export type LogoutOutcome =
  | { kind: 'signed-out'; redirect?: string | undefined }
  | {
      kind: 'confirm';
      /** The request's parameters, posted back with the user's answer. */
      params: [string, string][];
      csrfToken: string;
      /** The application asking, when known. */
      clientName?: string | undefined;
      /** Where a confirmed sign-out will redirect (the page's CSP form-action must allow it). */
      redirect?: string | undefined;
    };

export interface LogoutInput {
  db: Db;
  /** Read since the request arrived, in parallel with the hint's check and the client's read. */
  session: Promise<Session | undefined>;
  /** POST only: the CSRF token our confirmation page sends back (never read from a query). */
  csrfToken?: string | undefined;
}

interface Hint {
  subject: string;
  clientId: string;
}

/**
 * §2 `id_token_hint`: an ID token we issued (signature with our published keys, our issuer; an
 * access token's `typ: at+jwt` is refused). An expired one is accepted: it still says who the
 * relying party believes is signed in. One that does not verify counts as absent, so the user is
 * asked to confirm rather than shown an error they cannot act on (a token signed by a key since
 * retired from the JWKS is the usual case).
 */
async function verifiedHint(value: string): Promise<Hint | undefined> {
  // Imported on first use: a logout without a hint never evaluates jose.
  const { verifyIssuedJwt } = await import('../domain/jwt-access-tokens.js');
  try {
    const { payload, typ } = await verifyIssuedJwt(value, {
      requiredClaims: ['sub', 'aud'],
      acceptExpired: true,
    });
    if (typ !== undefined && typ.toLowerCase() !== 'jwt') return undefined;
    // Our ID tokens have one audience, the client (OIDC Core §2, shared/oidc/id-token.ts).
    const aud = Array.isArray(payload.aud) && payload.aud.length === 1 ? payload.aud[0] : payload.aud;
    return typeof aud === 'string' ? { subject: payload.sub!, clientId: aud } : undefined;
  } catch (error) {
    if (error instanceof AppError) return undefined;
    throw error;
  }
}

/** The client the request names, read while the hint is verified (its `aud`, checked after). */
function claimedClientId(params: Map<string, string>): string | undefined {
  const clientId = params.get('client_id');
  if (clientId) return clientId;
  const hint = params.get('id_token_hint');
  if (!hint) return undefined;
  try {
    // Unverified, only to start the read early: the verified `aud` must name the same client.
    const { aud } = JSON.parse(Buffer.from(hint.split('.')[1] ?? '', 'base64url').toString()) as {
      aud?: unknown;
    };
    const first = Array.isArray(aud) ? aud[0] : aud;
    return typeof first === 'string' ? first : undefined;
  } catch {
    return undefined;
  }
}

/** §3: only a post-logout URI the client registered, compared exactly, with `state` added. */
function redirectFor(client: Client | undefined, uri: string | undefined, state: string | undefined) {
  if (!client || !uri || !(client.postLogoutRedirectUris ?? []).includes(uri)) return undefined;
  if (state === undefined) return uri;
  const url = new URL(uri);
  url.searchParams.append('state', state);
  return url.toString();
}

/**
 * GET or POST /oauth2/logout. `params` is the query (GET) or the form (POST, §2). Round trips:
 * the session ‖ the client (GetItem, only with a post_logout_redirect_uri), then the session's
 * deletion; the hint is verified with the JWKS cached per container.
 */
export async function endSession(input: LogoutInput, params: Map<string, string>): Promise<LogoutOutcome> {
  const { db } = input;
  const hintValue = params.get('id_token_hint');
  const uri = params.get('post_logout_redirect_uri');
  const claimed = claimedClientId(params);
  const [hint, session, claimedClient] = await Promise.all([
    hintValue ? verifiedHint(hintValue) : undefined,
    input.session,
    claimed && uri ? getClient(db, claimed) : undefined,
  ]);
  // §2: with both, the client_id must be the one the ID token was issued to; a request where
  // they differ proves nothing about either, so it is treated as one without them. A hint that
  // does not verify names no client.
  const clientIdParam = params.get('client_id');
  const consistent = !hint || !clientIdParam || hint.clientId === clientIdParam;
  const clientId = clientIdParam ?? hint?.clientId;
  const client = consistent && clientId && claimedClient?.clientId === clientId ? claimedClient : undefined;
  const redirect = redirectFor(client, uri, params.get('state'));
  if (!session) return { kind: 'signed-out', redirect };
  // The hint proves the relying party knows this user's ID token: end the session at once. A
  // hint for another user (or none, or one that does not verify) needs the user's confirmation,
  // given on our page with the session's CSRF token (a cross-site form cannot read it).
  const provedByHint = consistent && hint?.subject === subjectOf(session.userId);
  const csrf = input.csrfToken;
  const confirmed = csrf !== undefined && constantTimeEqual(csrf, session.csrfToken);
  if (!provedByHint && !confirmed) {
    return {
      kind: 'confirm',
      params: [...params].filter(([k]) => k !== 'csrf_token'),
      csrfToken: session.csrfToken,
      clientName: client?.name,
      redirect,
    };
  }
  // The session is deleted on the server, not only its cookie (as the portal's sign-out does).
  await deleteSession(db, session);
  return { kind: 'signed-out', redirect };
}
