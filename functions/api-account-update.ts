import { renameAccount } from '../shared/domain/account-settings.js';
import { endpoint } from '../shared/http/handler.js';
import { jsonBody } from '../shared/http/request.js';
import { json } from '../shared/http/response.js';

/** PATCH /api/account `{displayName}`: changes one's display name. */
export const handler = endpoint('api-account-update', async ({ db, event, session }) => {
  const body = jsonBody(event);
  return json(200, { user: await renameAccount(db, session.userId, body) });
});
