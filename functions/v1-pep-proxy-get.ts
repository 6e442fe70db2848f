import { pepProxyOf } from '../shared/domain/agents.js';
import { v1Application } from '../shared/domain/application-admin.js';
import { endpoint } from '../shared/http/handler.js';
import { pathParam } from '../shared/http/request.js';
import { json } from '../shared/http/response.js';
import { pepProxyBody } from '../shared/keyrock/agents.js';

/** GET /v1/applications/{applicationId}/pep_proxies (Keyrock): the PEP proxy's id, or 404. */
export const handler = endpoint('v1-pep-proxy-get', async ({ db, event, caller }) => {
  const access = await v1Application(db, caller, pathParam(event, 'applicationId'), 'manage');
  return json(200, pepProxyBody(await pepProxyOf(db, access), access.app.clientId));
});
