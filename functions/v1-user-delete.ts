import { removeAccount, userIdParam } from '../shared/domain/user-admin.js';
import { endpoint } from '../shared/http/handler.js';
import { pathParam } from '../shared/http/request.js';

/** DELETE /v1/users/{userId} (Keyrock): oneself, or anyone for an administrator. */
export const handler = endpoint('v1-user-delete', async ({ db, event, caller }) => {
  await removeAccount(db, caller, await userIdParam(db, pathParam(event, 'userId')));
  return { statusCode: 204, headers: {}, body: '' };
});
