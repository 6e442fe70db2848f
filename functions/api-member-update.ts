import { requireOwner } from '../shared/domain/permissions-policy.js';
import { memberRole } from '../shared/domain/portal-views.js';
import { positiveInt } from '../shared/domain/validate.js';
import { notFound } from '../shared/errors.js';
import { portalHandler } from '../shared/http/portal.js';
import { jsonBody, pathParam } from '../shared/http/request.js';
import { json } from '../shared/http/response.js';
import { db } from '../shared/store/db.js';
import { getMembership, setMember } from '../shared/store/organizations.js';

/** PUT /api/organizations/{id}/members/{userId} `{role}`: owners only; the last owner stays an owner. */
export const handler = portalHandler(
  'PUT /api/organizations/{id}/members/{userId}',
  async (event, session) => {
    const orgId = positiveInt(pathParam(event, 'id'), 'id');
    const userId = positiveInt(pathParam(event, 'userId'), 'userId');
    const role = memberRole(jsonBody(event).role);
    await requireOwner(db(), orgId, session.userId);
    if (!(await getMembership(db(), orgId, userId))) throw notFound('This user is not a member.');
    const m = await setMember(db(), orgId, userId, role);
    return json(200, { userId: m.userId, role: m.role });
  },
);
