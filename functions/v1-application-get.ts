import { v1Application } from '../shared/domain/application-admin.js';
import { jwtSecretForManager } from '../shared/domain/jwt-secrets.js';
import { endpoint } from '../shared/http/handler.js';
import { pathParam } from '../shared/http/request.js';
import { json } from '../shared/http/response.js';
import { applicationInfo } from '../shared/keyrock/applications.js';

/** GET /v1/applications/{applicationId} (Keyrock): Provider, Purchaser or an administrator. */
export const handler = endpoint('v1-application-get', async ({ db, event, caller }) => {
  const access = await v1Application(db, caller, pathParam(event, 'applicationId'), 'read');
  return json(200, { application: applicationInfo(access.app, await jwtSecretForManager(access)) });
});
