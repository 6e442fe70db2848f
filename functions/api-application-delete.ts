import { requireProvider } from '../shared/domain/permissions-policy.js';
import { positiveInt } from '../shared/domain/validate.js';
import { portalHandler } from '../shared/http/portal.js';
import { pathParam } from '../shared/http/request.js';
import { json } from '../shared/http/response.js';
import { deleteApplication } from '../shared/store/applications.js';
import { db } from '../shared/store/db.js';

/** DELETE /api/applications/{id}: Provider only; roles, permissions and authorizations go with it. */
export const handler = portalHandler('DELETE /api/applications/{id}', async (event, session) => {
  const appId = positiveInt(pathParam(event, 'id'), 'id');
  await requireProvider(db(), session.userId, appId);
  await deleteApplication(db(), appId);
  return json(200, { deleted: appId });
});
