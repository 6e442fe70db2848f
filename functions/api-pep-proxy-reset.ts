import { resetPepProxy } from '../shared/domain/agents.js';
import { requireProvider } from '../shared/domain/permissions-policy.js';
import { positiveInt } from '../shared/domain/validate.js';
import { endpoint } from '../shared/http/handler.js';
import { pathParam } from '../shared/http/request.js';
import { json } from '../shared/http/response.js';

/** POST /api/applications/{id}/pep-proxy/password: a new password, shown once; the old one stops working. */
export const handler = endpoint('api-pep-proxy-reset', async ({ db, event, session }) => {
  const appId = positiveInt(pathParam(event, 'id'), 'id');
  const access = await requireProvider(db, session.userId, appId);
  return json(200, { password: await resetPepProxy(db, access) });
});
