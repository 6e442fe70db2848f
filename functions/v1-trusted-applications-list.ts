import { v1Application } from '../shared/domain/application-admin.js';
import { trustedApplicationsOf } from '../shared/domain/trusted-applications.js';
import { endpoint } from '../shared/http/handler.js';
import { pathParam } from '../shared/http/request.js';
import { json } from '../shared/http/response.js';
import { trustedListBody } from '../shared/keyrock/agents.js';

/** GET /v1/applications/{applicationId}/trusted_applications (Keyrock): client ids (404 for none). */
export const handler = endpoint('v1-trusted-applications-list', async ({ db, event, caller }) => {
  const access = await v1Application(db, caller, pathParam(event, 'applicationId'), 'read');
  return json(200, trustedListBody(await trustedApplicationsOf(db, access)));
});
