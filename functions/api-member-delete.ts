import { requireOwner } from '../shared/domain/permissions-policy.js';
import { positiveInt } from '../shared/domain/validate.js';
import { portalHandler } from '../shared/http/portal.js';
import { pathParam } from '../shared/http/request.js';
import { json } from '../shared/http/response.js';
import { db } from '../shared/store/db.js';
import { removeMember } from '../shared/store/organizations.js';

/** DELETE /api/organizations/{id}/members/{userId}: owners only; the last owner cannot be removed (400). */
export const handler = portalHandler(
  'DELETE /api/organizations/{id}/members/{userId}',
  async (event, session) => {
    const orgId = positiveInt(pathParam(event, 'id'), 'id');
    const userId = positiveInt(pathParam(event, 'userId'), 'userId');
    await requireOwner(db(), orgId, session.userId);
    await removeMember(db(), orgId, userId);
    return json(200, { userId, removed: true });
  },
);
