import { applicationDetail } from '../shared/domain/portal-views.js';
import { positiveInt } from '../shared/domain/validate.js';
import { endpoint } from '../shared/http/handler.js';
import { pathParam } from '../shared/http/request.js';
import { json } from '../shared/http/response.js';

/** GET /api/applications/{id}: details, and what the caller may see and do with it. */
export const handler = endpoint('api-application-get', async ({ db, event, session }) => {
  const appId = positiveInt(pathParam(event, 'id'), 'id');
  return json(200, await applicationDetail(db, session.userId, appId));
});
