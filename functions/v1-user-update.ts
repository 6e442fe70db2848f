import { config } from '../shared/config.js';
import { changeAccount, userIdParam } from '../shared/domain/user-admin.js';
import { endpoint } from '../shared/http/handler.js';
import { userChangesOf } from '../shared/http/keyrock.js';
import { pathParam } from '../shared/http/request.js';
import { json } from '../shared/http/response.js';
import { updatedUserBody } from '../shared/keyrock/users.js';

/** PATCH /v1/users/{userId} (Keyrock): oneself, or anyone for an administrator. */
export const handler = endpoint('v1-user-update', async ({ db, event, caller }) => {
  const userId = await userIdParam(db, pathParam(event, 'userId'));
  const changes = userChangesOf(event);
  const { user, changed } = await changeAccount(db, caller, userId, changes, config().bcryptCost);
  return json(200, updatedUserBody(user, changed));
});
