import { dropMember } from '../shared/domain/organizations.js';
import { positiveInt } from '../shared/domain/validate.js';
import { endpoint } from '../shared/http/handler.js';
import { pathParam } from '../shared/http/request.js';
import { json } from '../shared/http/response.js';

/** DELETE /api/organizations/{id}/members/{userId}: owners only; the last owner cannot be removed (400). */
export const handler = endpoint('api-member-delete', async ({ db, event, session }) => {
  const orgId = positiveInt(pathParam(event, 'id'), 'id');
  const userId = positiveInt(pathParam(event, 'userId'), 'userId');
  await dropMember(db, { userId: session.userId }, orgId, userId);
  return json(200, { userId, removed: true });
});
