import { removeApplication } from '../shared/domain/applications.js';
import { requireProvider } from '../shared/domain/permissions-policy.js';
import { positiveInt } from '../shared/domain/validate.js';
import { endpoint } from '../shared/http/handler.js';
import { pathParam } from '../shared/http/request.js';
import { json } from '../shared/http/response.js';

/** DELETE /api/applications/{id}: Provider only; roles, permissions and authorizations go with it. */
export const handler = endpoint('api-application-delete', async ({ db, event, session }) => {
  const appId = positiveInt(pathParam(event, 'id'), 'id');
  await requireProvider(db, session.userId, appId);
  await removeApplication(db, appId);
  return json(200, { deleted: appId });
});
