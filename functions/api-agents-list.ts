import { agentsOf } from '../shared/domain/agents.js';
import { requireProvider } from '../shared/domain/permissions-policy.js';
import { positiveInt } from '../shared/domain/validate.js';
import { endpoint } from '../shared/http/handler.js';
import { pathParam } from '../shared/http/request.js';
import { json } from '../shared/http/response.js';

/**
 * GET /api/applications/{id}/agents: the PEP proxy (or null) and the IoT agents, ids only
 * (Provider only, as Keyrock's /v1 reads them: their ids are half of their credentials).
 */
export const handler = endpoint('api-agents-list', async ({ db, event, session }) => {
  const appId = positiveInt(pathParam(event, 'id'), 'id');
  const access = await requireProvider(db, session.userId, appId);
  const { pepProxy, iotAgents } = await agentsOf(db, access);
  return json(200, {
    pepProxy: pepProxy === undefined ? null : { id: pepProxy },
    iotAgents: iotAgents.map((id) => ({ id })),
  });
});
