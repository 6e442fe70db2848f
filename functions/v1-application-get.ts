import { v1Application } from '../shared/domain/application-admin.js';
import { endpoint } from '../shared/http/handler.js';
import { pathParam } from '../shared/http/request.js';
import { json } from '../shared/http/response.js';
import { applicationInfo } from '../shared/keyrock/applications.js';

/** GET /v1/applications/{applicationId} (Keyrock): Provider, Purchaser or an administrator. */
export const handler = endpoint('v1-application-get', async ({ db, event, caller }) => {
  const { app } = await v1Application(db, caller, pathParam(event, 'applicationId'), 'read');
  return json(200, { application: applicationInfo(app) });
});
