import { changeMember } from '../shared/domain/organizations.js';
import { memberRole, positiveInt } from '../shared/domain/validate.js';
import { endpoint } from '../shared/http/handler.js';
import { jsonBody, pathParam } from '../shared/http/request.js';
import { json } from '../shared/http/response.js';

/** PUT /api/organizations/{id}/members/{userId} `{role}`: owners only; the last owner stays an owner. */
export const handler = endpoint('api-member-update', async ({ db, event, session }) => {
  const orgId = positiveInt(pathParam(event, 'id'), 'id');
  const userId = positiveInt(pathParam(event, 'userId'), 'userId');
  const role = memberRole(jsonBody(event).role);
  const m = await changeMember(db, { userId: session.userId }, orgId, userId, role);
  return json(200, { userId: m.userId, role: m.role });
});
