import { removePasskeyOf } from '../shared/domain/passkeys.js';
import { twoFactorOf } from '../shared/domain/two-factor.js';
import { endpoint } from '../shared/http/handler.js';
import { jsonBody, pathParam } from '../shared/http/request.js';
import { json } from '../shared/http/response.js';

/** DELETE /api/account/two-factor/passkeys/{id} `{password}`: removes a passkey. */
export const handler = endpoint('api-passkey-delete', async ({ db, event, session }) => {
  const body = jsonBody(event);
  await removePasskeyOf(db, session.userId, pathParam(event, 'id'), body.password);
  return json(200, await twoFactorOf(db, session.userId));
});
