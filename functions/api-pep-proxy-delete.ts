import { removePepProxy } from '../shared/domain/agents.js';
import { requireProvider } from '../shared/domain/permissions-policy.js';
import { positiveInt } from '../shared/domain/validate.js';
import { endpoint } from '../shared/http/handler.js';
import { pathParam } from '../shared/http/request.js';
import { json } from '../shared/http/response.js';

/** DELETE /api/applications/{id}/pep-proxy: Provider only; 404 without one. */
export const handler = endpoint('api-pep-proxy-delete', async ({ db, event, session }) => {
  const appId = positiveInt(pathParam(event, 'id'), 'id');
  const access = await requireProvider(db, session.userId, appId);
  await removePepProxy(db, access);
  return json(200, { deleted: true });
});
