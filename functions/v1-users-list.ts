import { listUsers } from '../shared/domain/user-admin.js';
import { pageLimit, positiveInt } from '../shared/domain/validate.js';
import { endpoint } from '../shared/http/handler.js';
import { queryParams } from '../shared/http/request.js';
import { json } from '../shared/http/response.js';
import { userListEntry } from '../shared/keyrock/users.js';

/**
 * GET /v1/users (Keyrock, administrators): one page of users by id, `?limit=` (default 100) and
 * `?cursor=` (the first id); the next page's URL is in `Link: <…>; rel="next"` (RFC 8288).
 */
export const handler = endpoint('v1-users-list', async ({ db, event, caller }) => {
  const query = queryParams(event);
  const limit = pageLimit(query.get('limit'));
  const cursor = query.has('cursor') ? positiveInt(query.get('cursor'), 'cursor') : 1;
  const page = await listUsers(db, caller, cursor, limit);
  const headers: Record<string, string> = {};
  if (page.next !== undefined) headers.link = `</v1/users?limit=${limit}&cursor=${page.next}>; rel="next"`;
  return json(200, { users: page.users.map(userListEntry) }, headers);
});
