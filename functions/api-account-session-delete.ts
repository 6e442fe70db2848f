import { endSession } from '../shared/domain/account-settings.js';
import { endpoint } from '../shared/http/handler.js';
import { pathParam } from '../shared/http/request.js';
import { json } from '../shared/http/response.js';

/** DELETE /api/account/sessions/{id}: signs out one other session (its id from GET /api/account). */
export const handler = endpoint('api-account-session-delete', async ({ db, event, session }) => {
  await endSession(db, session, pathParam(event, 'id'));
  return json(200, { ended: true });
});
