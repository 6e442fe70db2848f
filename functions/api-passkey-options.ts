import { passkeyRegistrationOptions } from '../shared/domain/passkeys.js';
import { relyingParty } from '../shared/domain/two-factor.js';
import { endpoint } from '../shared/http/handler.js';
import { jsonBody, requestOrigin } from '../shared/http/request.js';
import { json } from '../shared/http/response.js';

/**
 * POST /api/account/two-factor/passkeys/options `{password}`: the options for
 * navigator.credentials.create(); POST …/passkeys finishes with the browser's answer.
 */
export const handler = endpoint('api-passkey-options', async ({ db, event, session }) => {
  const body = jsonBody(event);
  const rp = relyingParty(requestOrigin(event));
  return json(200, await passkeyRegistrationOptions(db, session.userId, body.password, rp));
});
