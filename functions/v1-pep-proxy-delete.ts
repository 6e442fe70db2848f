import { removePepProxy } from '../shared/domain/agents.js';
import { v1Application } from '../shared/domain/application-admin.js';
import { endpoint } from '../shared/http/handler.js';
import { pathParam } from '../shared/http/request.js';

/** DELETE /v1/applications/{applicationId}/pep_proxies (Keyrock): 204, or 404 without one. */
export const handler = endpoint('v1-pep-proxy-delete', async ({ db, event, caller }) => {
  const access = await v1Application(db, caller, pathParam(event, 'applicationId'), 'manage');
  await removePepProxy(db, access);
  return { statusCode: 204, headers: {}, body: '' };
});
