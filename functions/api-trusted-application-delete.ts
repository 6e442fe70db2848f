import { requireProvider } from '../shared/domain/permissions-policy.js';
import { distrustApplication } from '../shared/domain/trusted-applications.js';
import { positiveInt } from '../shared/domain/validate.js';
import { endpoint } from '../shared/http/handler.js';
import { pathParam } from '../shared/http/request.js';
import { json } from '../shared/http/response.js';

/** DELETE /api/applications/{id}/trusted-applications/{clientId}: stop trusting it (Provider only). */
export const handler = endpoint('api-trusted-application-delete', async ({ db, event, session }) => {
  const appId = positiveInt(pathParam(event, 'id'), 'id');
  const access = await requireProvider(db, session.userId, appId);
  const clientId = pathParam(event, 'clientId');
  await distrustApplication(db, access, clientId);
  return json(200, { removed: clientId });
});
