import { addMember } from '../shared/domain/organizations.js';
import { findUser } from '../shared/domain/portal-views.js';
import { memberRole, positiveInt } from '../shared/domain/validate.js';
import { endpoint } from '../shared/http/handler.js';
import { jsonBody, pathParam } from '../shared/http/request.js';
import { json } from '../shared/http/response.js';

/** POST /api/organizations/{id}/members `{user: email|nickName, role: owner|member}` (owners only). */
export const handler = endpoint('api-members-create', async ({ db, event, session }) => {
  const orgId = positiveInt(pathParam(event, 'id'), 'id');
  const body = jsonBody(event);
  const role = memberRole(body.role);
  const m = await addMember(db, { userId: session.userId }, orgId, () => findUser(db, body.user), role);
  return json(201, { userId: m.userId, role: m.role });
});
