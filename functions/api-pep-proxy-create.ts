import { createPepProxy } from '../shared/domain/agents.js';
import { requireProvider } from '../shared/domain/permissions-policy.js';
import { positiveInt } from '../shared/domain/validate.js';
import { endpoint } from '../shared/http/handler.js';
import { pathParam } from '../shared/http/request.js';
import { json } from '../shared/http/response.js';

/**
 * POST /api/applications/{id}/pep-proxy: the application's one PEP proxy, its password shown
 * this once (Provider only; 409 when it has one).
 */
export const handler = endpoint('api-pep-proxy-create', async ({ db, event, session }) => {
  const appId = positiveInt(pathParam(event, 'id'), 'id');
  const access = await requireProvider(db, session.userId, appId);
  return json(201, await createPepProxy(db, access));
});
