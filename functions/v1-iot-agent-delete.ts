import { removeIotAgent } from '../shared/domain/agents.js';
import { v1Application } from '../shared/domain/application-admin.js';
import { endpoint } from '../shared/http/handler.js';
import { pathParam } from '../shared/http/request.js';

/** DELETE /v1/applications/{applicationId}/iot_agents/{iotAgentId} (Keyrock): 204. */
export const handler = endpoint('v1-iot-agent-delete', async ({ db, event, caller }) => {
  const access = await v1Application(db, caller, pathParam(event, 'applicationId'), 'manage');
  await removeIotAgent(db, access, pathParam(event, 'iotAgentId'));
  return { statusCode: 204, headers: {}, body: '' };
});
