import { removeIotAgent } from '../shared/domain/agents.js';
import { requireProvider } from '../shared/domain/permissions-policy.js';
import { positiveInt } from '../shared/domain/validate.js';
import { endpoint } from '../shared/http/handler.js';
import { pathParam } from '../shared/http/request.js';
import { json } from '../shared/http/response.js';

/** DELETE /api/applications/{id}/iot-agents/{agentId}: Provider only; 404 for another application's. */
export const handler = endpoint('api-iot-agent-delete', async ({ db, event, session }) => {
  const appId = positiveInt(pathParam(event, 'id'), 'id');
  const access = await requireProvider(db, session.userId, appId);
  const id = pathParam(event, 'agentId');
  await removeIotAgent(db, access, id);
  return json(200, { deleted: id });
});
