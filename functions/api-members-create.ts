import { requireOwner } from '../shared/domain/permissions-policy.js';
import { findUser, memberRole } from '../shared/domain/portal-views.js';
import { positiveInt } from '../shared/domain/validate.js';
import { conflict } from '../shared/errors.js';
import { portalHandler } from '../shared/http/portal.js';
import { jsonBody, pathParam } from '../shared/http/request.js';
import { json } from '../shared/http/response.js';
import { db } from '../shared/store/db.js';
import { getMembership, setMember } from '../shared/store/organizations.js';

/** POST /api/organizations/{id}/members `{user: email|nickName, role: owner|member}` (owners only). */
export const handler = portalHandler('POST /api/organizations/{id}/members', async (event, session) => {
  const orgId = positiveInt(pathParam(event, 'id'), 'id');
  const body = jsonBody(event);
  const role = memberRole(body.role);
  await requireOwner(db(), orgId, session.userId);
  const userId = await findUser(db(), body.user);
  if (await getMembership(db(), orgId, userId)) throw conflict('This user is already a member.', 'user');
  const m = await setMember(db(), orgId, userId, role);
  return json(201, { userId: m.userId, role: m.role });
});
