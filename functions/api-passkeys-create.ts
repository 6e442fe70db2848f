import { finishPasskeyRegistration } from '../shared/domain/passkeys.js';
import { relyingParty } from '../shared/domain/two-factor.js';
import { endpoint } from '../shared/http/handler.js';
import { jsonBody, requestOrigin } from '../shared/http/request.js';
import { json } from '../shared/http/response.js';

/**
 * POST /api/account/two-factor/passkeys `{credential, name}`: stores the passkey the browser
 * made; the first second factor also answers ten recovery codes, shown once.
 */
export const handler = endpoint('api-passkeys-create', async ({ db, event, session }) => {
  const body = jsonBody(event);
  const rp = relyingParty(requestOrigin(event));
  const added = await finishPasskeyRegistration(
    db,
    session.userId,
    { credential: body.credential, name: body.name },
    rp,
  );
  return json(201, added);
});
