import { updateUserAsAdmin } from '../shared/domain/administration.js';
import { positiveInt } from '../shared/domain/validate.js';
import { endpoint } from '../shared/http/handler.js';
import { jsonBody, pathParam } from '../shared/http/request.js';
import { json } from '../shared/http/response.js';

/**
 * PATCH /api/admin/users/{id} `{enabled?, admin?}` (administrators, never on themselves):
 * disables or enables the account, makes or unmakes an administrator.
 */
export const handler = endpoint('api-admin-user-update', async ({ db, event, session }) => {
  const userId = positiveInt(pathParam(event, 'id'), 'id');
  return json(200, { user: await updateUserAsAdmin(db, session.userId, userId, jsonBody(event)) });
});
