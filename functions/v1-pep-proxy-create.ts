import { createPepProxy } from '../shared/domain/agents.js';
import { v1Application } from '../shared/domain/application-admin.js';
import { endpoint } from '../shared/http/handler.js';
import { requireJsonType } from '../shared/http/keyrock.js';
import { pathParam } from '../shared/http/request.js';
import { json } from '../shared/http/response.js';
import { createdPepProxyBody } from '../shared/keyrock/agents.js';

/**
 * POST /v1/applications/{applicationId}/pep_proxies (Keyrock): the application's one PEP proxy,
 * with its password shown this once (409 when it has one).
 */
export const handler = endpoint('v1-pep-proxy-create', async ({ db, event, caller }) => {
  requireJsonType(event);
  const access = await v1Application(db, caller, pathParam(event, 'applicationId'), 'manage');
  const { id, password } = await createPepProxy(db, access);
  return json(201, createdPepProxyBody(id, password));
});
