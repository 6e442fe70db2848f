import { searchUsers } from '../shared/domain/administration.js';
import { endpoint } from '../shared/http/handler.js';
import { queryParams } from '../shared/http/request.js';
import { json } from '../shared/http/response.js';

/**
 * GET /api/admin/users?q=&by=email|name&limit=&cursor= (administrators): a page of users by
 * email or display-name prefix, the next page's cursor, and the SCIM totals.
 */
export const handler = endpoint('api-admin-users-list', async ({ db, event, session }) => {
  const query = queryParams(event);
  const page = await searchUsers(db, session.userId, {
    q: query.get('q'),
    by: query.get('by'),
    limit: query.get('limit'),
    cursor: query.get('cursor'),
  });
  return json(200, page);
});
