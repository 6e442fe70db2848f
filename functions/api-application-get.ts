import { applicationDetail } from '../shared/domain/portal-views.js';
import { positiveInt } from '../shared/domain/validate.js';
import { portalHandler } from '../shared/http/portal.js';
import { pathParam } from '../shared/http/request.js';
import { json } from '../shared/http/response.js';
import { db } from '../shared/store/db.js';

/** GET /api/applications/{id}: details, and what the caller may see and do with it. */
export const handler = portalHandler('GET /api/applications/{id}', async (event, session) => {
  const appId = positiveInt(pathParam(event, 'id'), 'id');
  return json(200, await applicationDetail(db(), session.userId, appId));
});
