import { createIotAgent } from '../shared/domain/agents.js';
import { v1Application } from '../shared/domain/application-admin.js';
import { endpoint } from '../shared/http/handler.js';
import { requireJsonType } from '../shared/http/keyrock.js';
import { pathParam } from '../shared/http/request.js';
import { json } from '../shared/http/response.js';
import { createdIotAgentBody } from '../shared/keyrock/agents.js';

/** POST /v1/applications/{applicationId}/iot_agents (Keyrock): a new agent, password shown once. */
export const handler = endpoint('v1-iot-agents-create', async ({ db, event, caller }) => {
  requireJsonType(event);
  const access = await v1Application(db, caller, pathParam(event, 'applicationId'), 'manage');
  const { id, password } = await createIotAgent(db, access);
  return json(201, createdIotAgentBody(id, password));
});
