import { renewRecoveryCodes } from '../shared/domain/two-factor.js';
import { endpoint } from '../shared/http/handler.js';
import { jsonBody } from '../shared/http/request.js';
import { json } from '../shared/http/response.js';

/** POST /api/account/two-factor/recovery-codes `{password}`: ten new recovery codes; the old ones stop working. */
export const handler = endpoint('api-recovery-codes-create', async ({ db, event, session }) => {
  const body = jsonBody(event);
  return json(201, { recoveryCodes: await renewRecoveryCodes(db, session.userId, body.password) });
});
