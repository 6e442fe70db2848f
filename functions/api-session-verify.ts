import { sessionView } from '../shared/domain/portal-views.js';
import { completeSignIn } from '../shared/domain/sign-in-verify.js';
import { relyingParty } from '../shared/domain/two-factor.js';
import { endpoint } from '../shared/http/handler.js';
import { jsonBody, requestOrigin } from '../shared/http/request.js';
import { json } from '../shared/http/response.js';
import { sessionCookie } from '../shared/http/session.js';

/**
 * POST /api/session/verify `{ticket, code}` or `{ticket, credential}`: the second step of a
 * sign-in (an authenticator-app or recovery code, or a passkey), or a passkey sign-in's answer.
 * Starts a NEW session, like POST /api/session.
 */
export const handler = endpoint('api-session-verify', async ({ db, event, session }) => {
  const body = jsonBody(event);
  const rp = relyingParty(requestOrigin(event));
  const started = await completeSignIn(
    db,
    { ticket: body.ticket, code: body.code, credential: body.credential },
    rp,
    await session,
  );
  return { ...json(200, await sessionView(db, started.session)), cookies: [sessionCookie(started.id)] };
});
