import { iotAgentsOf } from '../shared/domain/agents.js';
import { v1Application } from '../shared/domain/application-admin.js';
import { endpoint } from '../shared/http/handler.js';
import { pathParam } from '../shared/http/request.js';
import { json } from '../shared/http/response.js';
import { iotAgentsBody } from '../shared/keyrock/agents.js';

/** GET /v1/applications/{applicationId}/iot_agents (Keyrock): the agents' ids (404 for none). */
export const handler = endpoint('v1-iot-agents-list', async ({ db, event, caller }) => {
  const access = await v1Application(db, caller, pathParam(event, 'applicationId'), 'manage');
  return json(200, iotAgentsBody(await iotAgentsOf(db, access)));
});
