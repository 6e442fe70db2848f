import { readAccount, userIdParam } from '../shared/domain/user-admin.js';
import { endpoint } from '../shared/http/handler.js';
import { pathParam } from '../shared/http/request.js';
import { json } from '../shared/http/response.js';
import { userBody } from '../shared/keyrock/users.js';

/** GET /v1/users/{userId} (Keyrock): oneself, or anyone for an administrator. */
export const handler = endpoint('v1-user-get', async ({ db, event, caller }) => {
  const user = await readAccount(db, caller, await userIdParam(db, pathParam(event, 'userId')));
  return json(200, { user: userBody(user) });
});
