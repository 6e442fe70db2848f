import { organizationDetail } from '../shared/domain/portal-views.js';
import { positiveInt } from '../shared/domain/validate.js';
import { endpoint } from '../shared/http/handler.js';
import { pathParam } from '../shared/http/request.js';
import { json } from '../shared/http/response.js';

/** GET /api/organizations/{id}: profile and members, for members only. */
export const handler = endpoint('api-organization-get', async ({ db, event, session }) => {
  const orgId = positiveInt(pathParam(event, 'id'), 'id');
  return json(200, await organizationDetail(db, { userId: session.userId }, orgId));
});
