import { randomUUID } from 'node:crypto';
import { config } from '../config.js';
import { constantTimeEqual, randomToken, sha256 } from '../crypto.js';
import { authorizePageError, authorizeRedirectError } from '../errors.js';
import { logger } from '../log.js';
import type { RedirectTarget } from '../model.js';
import type { Application } from '../store/applications.js';
import { authorizeContext, putConsent } from '../store/consents.js';
import type { Db } from '../store/db.js';
import type { Session } from '../store/sessions.js';
import { putCode, putTokens } from '../store/tokens.js';
import { nowSeconds } from '../time.js';
import { type AuthorizeRequest, validateAuthorizeRequest } from './authorize.js';
import { redirectWith } from './redirect.js';
import { mintTokens } from './tokens.js';

/** What the authorization endpoint answers; the HTTP layer renders it (shared/http/pages). */
export type AuthorizeOutcome =
  | { kind: 'redirect'; location: string }
  /** No session: the portal's sign-in, coming back to this same-origin path afterwards. */
  | { kind: 'sign-in'; returnPath: string }
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
}

/** The hooks and inputs an authorization step needs from its HTTP request. */
export interface AuthorizeInput {
  db: Db;
  /** Read since the request arrived (it overlaps the client's read). */
  session: Promise<Session | undefined>;
  /** Once the request is known good, unexpected failures go back to the client (RFC 6749 §4.1.2.1). */
  redirectErrorsTo(target: RedirectTarget): void;
}

/** RFC 6749 §4.1.2 / §4.2.2: hands out a code or (implicit) an access token, by redirect. */
async function issue(db: Db, request: AuthorizeRequest, userId: number): Promise<AuthorizeOutcome> {
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
      grantId: randomUUID(),
      expiresAt: nowSeconds() + config().authorizationCodeTtl,
    });
    return { kind: 'redirect', location: redirectWith(request, { code }) };
  }
  // RFC 6749 §4.2.2: the implicit grant never issues a refresh token.
  const minted = mintTokens({ client: request.client, userId, scope: request.scope, withRefresh: false });
  await putTokens(db, minted.records);
  const location = redirectWith(request, {
    access_token: minted.accessToken,
    token_type: 'bearer',
    expires_in: String(minted.expiresIn),
    scope: minted.scope,
  });
  return { kind: 'redirect', location };
}

/**
 * GET /oauth2/authorize. Round trips: GetItem CLIENT ‖ GetItem SESSION, then one BatchGetItem
 * (consent, application, user) and the write of the code or token.
 */
export async function authorizeGet(input: AuthorizeInput, rawQuery: string): Promise<AuthorizeOutcome> {
  const { db } = input;
  const [request, session] = await Promise.all([
    validateAuthorizeRequest(db, new URLSearchParams(rawQuery)),
    input.session,
  ]);
  if (!session) return { kind: 'sign-in', returnPath: `/oauth2/authorize?${rawQuery}` };
  input.redirectErrorsTo(request);
  const context = await authorizeContext(db, session.userId, request.client.appId);
  if (context.consented) return issue(db, request, session.userId);
  return {
    kind: 'consent',
    consent: {
      application: context.application,
      fallbackName: request.client.name,
      userName: context.user?.displayName ?? context.user?.email ?? '',
      csrfToken: session.csrfToken,
      params: request.params,
      redirectUri: request.redirectUri,
    },
  };
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
    issue(db, request, session.userId),
  ]);
  return outcome;
}
