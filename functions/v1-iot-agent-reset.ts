import { resetIotAgent } from '../shared/domain/agents.js';
import { v1Application } from '../shared/domain/application-admin.js';
import { endpoint } from '../shared/http/handler.js';
import { requireJsonType } from '../shared/http/keyrock.js';
import { pathParam } from '../shared/http/request.js';
import { json } from '../shared/http/response.js';
import { newPasswordBody } from '../shared/keyrock/agents.js';

/** PATCH /v1/applications/{applicationId}/iot_agents/{iotAgentId} (Keyrock): a new password. */
export const handler = endpoint('v1-iot-agent-reset', async ({ db, event, caller }) => {
  requireJsonType(event);
  const access = await v1Application(db, caller, pathParam(event, 'applicationId'), 'manage');
  return json(200, newPasswordBody(await resetIotAgent(db, access, pathParam(event, 'iotAgentId'))));
});
