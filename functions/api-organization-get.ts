import { requireMember } from '../shared/domain/permissions-policy.js';
import { organizationDetail } from '../shared/domain/portal-views.js';
import { positiveInt } from '../shared/domain/validate.js';
import { portalHandler } from '../shared/http/portal.js';
import { pathParam } from '../shared/http/request.js';
import { json } from '../shared/http/response.js';
import { db } from '../shared/store/db.js';

/** GET /api/organizations/{id}: profile and members, for members only. */
export const handler = portalHandler('GET /api/organizations/{id}', async (event, session) => {
  const orgId = positiveInt(pathParam(event, 'id'), 'id');
  const me = await requireMember(db(), orgId, session.userId);
  return json(200, await organizationDetail(db(), orgId, me.role));
});
