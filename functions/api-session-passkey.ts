import { passkeySignInOptions } from '../shared/domain/sign-in.js';
import { relyingParty } from '../shared/domain/two-factor.js';
import { endpoint } from '../shared/http/handler.js';
import { jsonBody, requestOrigin } from '../shared/http/request.js';
import { json } from '../shared/http/response.js';

/**
 * POST /api/session/passkey: starts a sign-in with a passkey alone, `{ticket, passkey}` (the
 * options for navigator.credentials.get()); POST /api/session/verify finishes it. A JSON body
 * (`{}`) is required, as for sign-in, so a cross-site form cannot start one.
 */
export const handler = endpoint('api-session-passkey', async ({ db, event }) => {
  jsonBody(event);
  return json(200, await passkeySignInOptions(db, relyingParty(requestOrigin(event)).id));
});
