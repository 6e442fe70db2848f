import { randomUUID } from 'node:crypto';
import { config } from '../config.js';
import { randomToken, sha256 } from '../crypto.js';
import { AppError } from '../errors.js';
import { consentPage, errorPage } from '../http/pages/oauth-pages.js';
import { formBody, header } from '../http/request.js';
import { json, redirect } from '../http/response.js';
import { currentSession, requireCsrf } from '../http/session.js';
import type { HttpEvent, HttpResult } from '../http/types.js';
import { logger } from '../log.js';
import { toApplication } from '../store/applications.js';
import { putConsent } from '../store/consents.js';
import type { Db } from '../store/db.js';
import { keys } from '../store/keys.js';
import { batchGet, nowSeconds } from '../store/ops.js';
import type { Session } from '../store/sessions.js';
import { putCode, putTokens } from '../store/tokens.js';
import {
  AuthorizePageError,
  AuthorizeRedirectError,
  type AuthorizeRequest,
  redirectWith,
  validateAuthorizeRequest,
} from './authorize.js';
import { mintTokens } from './tokens.js';

/** The 400 answer for a request that cannot go back to the client: HTML for browsers, else JSON. */
function pageError(event: HttpEvent, error: AuthorizePageError): HttpResult {
  if ((header(event, 'accept') ?? '').includes('text/html')) {
    return errorPage(error.status, error.error, error.description);
  }
  return json(
    error.status,
    { error: error.error, error_description: error.description },
    { 'cache-control': 'no-store', pragma: 'no-cache' },
  );
}

/** Runs one authorize step, turning its errors into a page or a redirect to the client. */
async function answer(event: HttpEvent, step: () => Promise<HttpResult>): Promise<HttpResult> {
  try {
    return await step();
  } catch (error) {
    if (error instanceof AuthorizePageError) return pageError(event, error);
    if (error instanceof AuthorizeRedirectError) {
      return redirect(
        redirectWith(error.target, { error: error.error, error_description: error.description }),
      );
    }
    throw error;
  }
}

/** RFC 6749 §4.1.2 / §4.2.2: hands out a code or (implicit) an access token, by redirect. */
async function issue(db: Db, request: AuthorizeRequest, userId: number): Promise<HttpResult> {
  try {
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
      return redirect(redirectWith(request, { code }));
    }
    // RFC 6749 §4.2.2: the implicit grant never issues a refresh token.
    const minted = mintTokens({ client: request.client, userId, scope: request.scope, withRefresh: false });
    await putTokens(db, minted.records);
    return redirect(
      redirectWith(request, {
        access_token: minted.accessToken,
        token_type: 'bearer',
        expires_in: String(minted.expiresIn),
        scope: minted.scope,
      }),
    );
  } catch (error) {
    logger.error('authorization failed', { error: error as Error });
    throw new AuthorizeRedirectError(request, 'server_error', 'The authorization server failed; try again.');
  }
}

/** The portal's sign-in, coming back to this same-origin path afterwards. */
function toSignIn(returnPath: string): HttpResult {
  return redirect(`/signin?return=${encodeURIComponent(returnPath)}`);
}

async function consentOrIssue(db: Db, request: AuthorizeRequest, session: Session): Promise<HttpResult> {
  const [consent, app, user] = await batchGet(db, [
    keys.consent(session.userId, request.client.appId),
    keys.application(request.client.appId),
    keys.user(session.userId),
  ]).then((items) => [
    items.find((i) => i.SK === keys.consent(session.userId, request.client.appId).SK),
    items.find((i) => i.PK === keys.application(request.client.appId).PK),
    items.find((i) => i.PK === keys.user(session.userId).PK),
  ]);
  if (consent) return issue(db, request, session.userId);
  const application = app ? toApplication(app) : undefined;
  return consentPage({
    appName: application?.name ?? request.client.name,
    appUrl: application?.url ?? request.redirectUri,
    logoKey: application?.logoKey,
    userName: (user?.displayName as string | undefined) ?? (user?.email as string | undefined) ?? '',
    csrfToken: session.csrfToken,
    params: request.params,
    redirectUri: request.redirectUri,
  });
}

/**
 * GET /oauth2/authorize. Round trips: GetItem CLIENT, GetItem SESSION, then one BatchGetItem
 * (consent, application, user) and the write of the code or token.
 */
export function authorizeGet(db: Db, event: HttpEvent): Promise<HttpResult> {
  return answer(event, async () => {
    const search = new URLSearchParams(event.rawQueryString ?? '');
    const [request, session] = await Promise.all([
      validateAuthorizeRequest(db, search),
      currentSession(event),
    ]);
    if (!session) return toSignIn(`/oauth2/authorize?${event.rawQueryString ?? ''}`);
    return consentOrIssue(db, request, session);
  });
}

/**
 * POST /oauth2/authorize: the user's decision from the consent page, CSRF-protected with the
 * session's token. Allow is remembered per user and application (USER#uid/CONSENT#appId).
 */
export function authorizeDecision(db: Db, event: HttpEvent): Promise<HttpResult> {
  return answer(event, async () => {
    let form: Map<string, string>;
    try {
      form = formBody(event);
    } catch (error) {
      if (error instanceof AppError) throw new AuthorizePageError('invalid_request', error.message);
      throw error;
    }
    const search = new URLSearchParams([...form].filter(([k]) => k !== 'csrf_token' && k !== 'decision'));
    // The session and the client are read in parallel; the session decides first.
    const [session, validated] = await Promise.all([
      currentSession(event),
      validateAuthorizeRequest(db, search).then(
        (request) => ({ request }),
        (error: unknown) => ({ error }),
      ),
    ]);
    if (!session) return toSignIn(`/oauth2/authorize?${search.toString()}`);
    try {
      requireCsrf(session, form.get('csrf_token'));
    } catch {
      throw new AuthorizePageError(
        'access_denied',
        'The form is missing a valid CSRF token; go back to the application and start again.',
        403,
      );
    }
    if ('error' in validated) throw validated.error;
    const { request } = validated;
    const decision = form.get('decision');
    if (decision === 'deny') throw new AuthorizeRedirectError(request, 'access_denied', 'The user declined.');
    if (decision !== 'allow')
      throw new AuthorizeRedirectError(request, 'invalid_request', 'decision must be allow or deny.');
    // The approval and the code (or token) are written in parallel: one round trip.
    const [, answer] = await Promise.all([
      putConsent(db, session.userId, request.client.appId).catch((error: unknown) => {
        logger.error('storing consent failed', { error: error as Error });
      }),
      issue(db, request, session.userId),
    ]);
    return answer;
  });
}
