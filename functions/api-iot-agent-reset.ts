import { resetIotAgent } from '../shared/domain/agents.js';
import { requireProvider } from '../shared/domain/permissions-policy.js';
import { positiveInt } from '../shared/domain/validate.js';
import { endpoint } from '../shared/http/handler.js';
import { pathParam } from '../shared/http/request.js';
import { json } from '../shared/http/response.js';

/** POST /api/applications/{id}/iot-agents/{agentId}/password: a new password, shown once (Provider only). */
export const handler = endpoint('api-iot-agent-reset', async ({ db, event, session }) => {
  const appId = positiveInt(pathParam(event, 'id'), 'id');
  const access = await requireProvider(db, session.userId, appId);
  const id = pathParam(event, 'agentId');
  return json(200, { id, password: await resetIotAgent(db, access, id) });
});
