import { deleteOwnAccount } from '../shared/domain/account-settings.js';
import { endpoint } from '../shared/http/handler.js';
import { jsonBody } from '../shared/http/request.js';
import { json } from '../shared/http/response.js';
import { clearedSessionCookie } from '../shared/http/session.js';

/**
 * DELETE /api/account `{password}`: deletes one's account and everything of it, and signs out;
 * the last owner of an organization gets 409 naming the organizations to hand over first.
 */
export const handler = endpoint('api-account-delete', async ({ db, event, session }) => {
  await deleteOwnAccount(db, session, jsonBody(event));
  return { ...json(200, { deleted: true, user: null }), cookies: [clearedSessionCookie()] };
});
