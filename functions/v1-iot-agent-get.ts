import { iotAgentOf } from '../shared/domain/agents.js';
import { v1Application } from '../shared/domain/application-admin.js';
import { endpoint } from '../shared/http/handler.js';
import { pathParam } from '../shared/http/request.js';
import { json } from '../shared/http/response.js';
import { iotAgentBody } from '../shared/keyrock/agents.js';

/** GET /v1/applications/{applicationId}/iot_agents/{iotAgentId} (Keyrock). */
export const handler = endpoint('v1-iot-agent-get', async ({ db, event, caller }) => {
  const access = await v1Application(db, caller, pathParam(event, 'applicationId'), 'manage');
  const agent = await iotAgentOf(db, access, pathParam(event, 'iotAgentId'));
  return json(200, iotAgentBody(agent.id, agent.clientId));
});
