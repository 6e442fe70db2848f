import { changePassword } from '../shared/domain/account-settings.js';
import { endpoint } from '../shared/http/handler.js';
import { jsonBody } from '../shared/http/request.js';
import { json } from '../shared/http/response.js';

/**
 * PUT /api/account/password `{password, newPassword, signOutOthers?}`: the current password
 * (guarded against guessing), then the new one; other sessions end unless `signOutOthers: false`.
 */
export const handler = endpoint('api-account-password', async ({ db, event, session }) =>
  json(200, await changePassword(db, session, jsonBody(event))),
);
