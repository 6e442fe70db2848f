import { resetPepProxy } from '../shared/domain/agents.js';
import { v1Application } from '../shared/domain/application-admin.js';
import { endpoint } from '../shared/http/handler.js';
import { requireJsonType } from '../shared/http/keyrock.js';
import { pathParam } from '../shared/http/request.js';
import { json } from '../shared/http/response.js';
import { newPasswordBody } from '../shared/keyrock/agents.js';

/** PATCH /v1/applications/{applicationId}/pep_proxies (Keyrock): a new password, shown once. */
export const handler = endpoint('v1-pep-proxy-reset', async ({ db, event, caller }) => {
  requireJsonType(event);
  const access = await v1Application(db, caller, pathParam(event, 'applicationId'), 'manage');
  return json(200, newPasswordBody(await resetPepProxy(db, access)));
});
