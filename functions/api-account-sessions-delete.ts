import { endOtherSessions } from '../shared/domain/account-settings.js';
import { endpoint } from '../shared/http/handler.js';
import { json } from '../shared/http/response.js';

/** DELETE /api/account/sessions: signs out every other portal session of the account. */
export const handler = endpoint('api-account-sessions-delete', async ({ db, session }) =>
  json(200, await endOtherSessions(db, session)),
);
