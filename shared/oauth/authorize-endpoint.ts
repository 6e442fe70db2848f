import { randomUUID } from 'node:crypto';
import { config } from '../config.js';
import { constantTimeEqual, randomToken, sha256 } from '../crypto.js';
import { authorizePageError, authorizeRedirectError } from '../errors.js';
import { logger } from '../log.js';
import type { RedirectTarget } from '../model.js';
import { consentLines, isOpenIdScope } from '../oidc/claims.js';
import { userIdToken } from '../oidc/id-token.js';
import { nextStep } from '../oidc/prompt.js';
import type { Application } from '../store/applications.js';
import { authorizeContext, putConsent } from '../store/consents.js';
import type { Db } from '../store/db.js';
import type { Session } from '../store/sessions.js';
import { putCode, putTokens } from '../store/tokens.js';
import { getUser, type User } from '../store/users.js';
import { nowSeconds } from '../time.js';
import { type AuthorizeRequest, validateAuthorizeRequest } from './authorize.js';
import { redirectWith } from './redirect.js';
import { issueTokens } from './tokens.js';

/** What the authorization endpoint answers; the HTTP layer renders it (shared/http/pages). */
export type AuthorizeOutcome =
  | { kind: 'redirect'; location: string }
  /**
   * No session, or (`again`: prompt=login, max_age) one too old: the portal's sign-in, coming
   * back to this same-origin path afterwards.
   */
  | { kind: 'sign-in'; returnPath: string; again?: boolean }
  | { kind: 'consent'; consent: Consent };

export interface Consent {
  application: Application | undefined;
  /** Shown as the application's name and URL when the application item is gone. */
  fallbackName: string;
  userName: string;
  csrfToken: string;
  /** The authorization request's parameters, posted back with the decision. */
  params: Map<string, string>;
  redirectUri: string;
  /** An OpenID Connect request: what it will release, by scope (OIDC Core §5.4). */
  claims?: string[] | undefined;
}

/** The hooks and inputs an authorization step needs from its HTTP request. */
export interface AuthorizeInput {
  db: Db;
  /** Read since the request arrived (it overlaps the client's read). */
  session: Promise<Session | undefined>;
  /** Once the request is known good, unexpected failures go back to the client (RFC 6749 §4.1.2.1). */
  redirectErrorsTo(target: RedirectTarget): void;
  /** The issuer (shared/oauth/metadata.ts `issuerFor`) the implicit flow's ID tokens name. */
  issuer: string;
}

/**
 * RFC 6749 §4.1.2 / §4.2.2 and OIDC Core §3.2.2.5: hands out a code or (implicit) an access
 * token and/or an ID token, by redirect. `user` is passed when already read.
 */
async function issue(
  input: AuthorizeInput,
  request: AuthorizeRequest,
  session: Session,
  user?: User,
): Promise<AuthorizeOutcome> {
  const { db } = input;
  const userId = session.userId;
  if (request.responseType === 'code') {
    // 256 random bits (≥ 128 required); single use and short-lived (RFC 6749 §4.1.2: 10 min max).
    const code = randomToken(32);
    await putCode(db, {
      digest: sha256(code),
      clientId: request.client.clientId,
      appId: request.client.appId,
      userId,
      redirectUri: request.redirectUri,
      scope: request.scope,
      codeChallenge: request.codeChallenge,
      // The ID token issued for this code carries them (OIDC Core §2 auth_time, §3.1.2.1 nonce).
      nonce: request.nonce,
      authTime: session.authTime,
      amr: session.amr,
      grantId: randomUUID(),
      expiresAt: nowSeconds() + config().authorizationCodeTtl,
    });
    return { kind: 'redirect', location: redirectWith(request, { code }) };
  }
  // RFC 6749 §4.2.2: the implicit grant never issues a refresh token.
  const minted =
    request.responseType === 'id_token'
      ? undefined
      : await issueTokens(
          { db, issuer: input.issuer },
          { client: request.client, userId, scope: request.scope, withRefresh: false },
        );
  const withIdToken = request.responseType.startsWith('id_token');
  const [holder] = await Promise.all([
    withIdToken ? (user ?? getUser(db, userId)) : undefined,
    minted ? putTokens(db, minted.records) : undefined,
  ]);
  let idToken: string | undefined;
  if (withIdToken) {
    if (!holder)
      throw authorizeRedirectError(request, 'login_required', 'The signed-in user no longer exists.');
    idToken = await userIdToken({
      issuer: input.issuer,
      clientId: request.client.clientId,
      user: holder,
      scope: request.scope,
      nonce: request.nonce,
      authTime: session.authTime,
      amr: session.amr,
      // OIDC Core §3.2.2.10: at_hash is REQUIRED when an access token comes with the ID token.
      accessToken: minted?.accessToken,
      lifetime: config().accessTokenTtl,
    });
  }
  const location = redirectWith(request, {
    ...(minted
      ? {
          access_token: minted.accessToken,
          token_type: 'bearer',
          expires_in: minted.expiresIn === undefined ? undefined : String(minted.expiresIn),
          scope: minted.scope,
        }
      : {}),
    id_token: idToken,
  });
  return { kind: 'redirect', location };
}

/**
 * GET /oauth2/authorize. Round trips: GetItem CLIENT ‖ GetItem SESSION, then one BatchGetItem
 * (consent, application, user) and the write of the code or token. `prompt` and `max_age` (OIDC
 * Core §3.1.2.1) decide between signing in (again), the consent page and issuing.
 */
export async function authorizeGet(input: AuthorizeInput, rawQuery: string): Promise<AuthorizeOutcome> {
  const { db } = input;
  const [request, session] = await Promise.all([
    validateAuthorizeRequest(db, new URLSearchParams(rawQuery)),
    input.session,
  ]);
  // The request is known good: from here an unexpected failure goes back to the client.
  input.redirectErrorsTo(request);
  const context = session ? await authorizeContext(db, session.userId, request.client.appId) : undefined;
  const step = nextStep({
    prompt: request.prompt,
    maxAge: request.maxAge,
    session: session && { authTime: session.authTime },
    consented: context?.consented ?? false,
    now: nowSeconds(),
  });
  if (step.kind === 'error') throw authorizeRedirectError(request, step.error, step.description);
  if (step.kind === 'sign-in') {
    return { kind: 'sign-in', returnPath: afterSignIn(rawQuery), ...(step.again ? { again: true } : {}) };
  }
  if (step.kind === 'issue') return issue(input, request, session!, context?.user);
  return {
    kind: 'consent',
    consent: {
      application: context?.application,
      fallbackName: request.client.name,
      userName: context?.user?.displayName ?? context?.user?.email ?? '',
      csrfToken: session!.csrfToken,
      params: request.params,
      redirectUri: request.redirectUri,
      claims: isOpenIdScope(request.scope) ? consentLines(request.scope) : undefined,
    },
  };
}

/**
 * Where the sign-in comes back to: the same request, less prompt=login and max_age, which the
 * sign-in has just satisfied. Keeping them would loop (max_age=0 is stale a second later); the
 * ID token's auth_time still lets the client check max_age itself (OIDC Core §3.1.2.1).
 */
function afterSignIn(rawQuery: string): string {
  const search = new URLSearchParams(rawQuery);
  const prompt = search.get('prompt');
  if (prompt === null && !search.has('max_age')) return `/oauth2/authorize?${rawQuery}`;
  const rest = (prompt ?? '').split(' ').filter((v) => v !== '' && v !== 'login');
  if (rest.length > 0) search.set('prompt', rest.join(' '));
  else search.delete('prompt');
  search.delete('max_age');
  return `/oauth2/authorize?${search.toString()}`;
}

/**
 * POST /oauth2/authorize: the user's decision from the consent page, CSRF-protected with the
 * session's token in the form (a cross-site page can post the form but cannot read the token).
 * Allow is remembered per user and application.
 */
export async function authorizeDecision(
  input: AuthorizeInput,
  form: Map<string, string>,
): Promise<AuthorizeOutcome> {
  const { db } = input;
  const search = new URLSearchParams([...form].filter(([k]) => k !== 'csrf_token' && k !== 'decision'));
  // The session and the client are read in parallel; the session decides first.
  const [session, validated] = await Promise.all([
    input.session,
    validateAuthorizeRequest(db, search).then(
      (request) => ({ request }),
      (error: unknown) => ({ error }),
    ),
  ]);
  if (!session) return { kind: 'sign-in', returnPath: `/oauth2/authorize?${search.toString()}` };
  const csrf = form.get('csrf_token');
  if (!csrf || !constantTimeEqual(csrf, session.csrfToken)) {
    throw authorizePageError(
      'access_denied',
      'The form is missing a valid CSRF token; go back to the application and start again.',
      403,
    );
  }
  if ('error' in validated) throw validated.error;
  const { request } = validated;
  const decision = form.get('decision');
  if (decision === 'deny') throw authorizeRedirectError(request, 'access_denied', 'The user declined.');
  if (decision !== 'allow') {
    throw authorizeRedirectError(request, 'invalid_request', 'decision must be allow or deny.');
  }
  input.redirectErrorsTo(request);
  // The approval and the code (or token) are written in parallel: one round trip. A lost
  // approval only means the consent page is shown again next time.
  const [, outcome] = await Promise.all([
    putConsent(db, session.userId, request.client.appId).catch((error: unknown) => {
      logger.error('storing consent failed', { error: error as Error });
    }),
    issue(input, request, session),
  ]);
  return outcome;
}
