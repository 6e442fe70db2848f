import { v1Application } from '../shared/domain/application-admin.js';
import { trustApplication } from '../shared/domain/trusted-applications.js';
import { endpoint } from '../shared/http/handler.js';
import { requireJsonType } from '../shared/http/keyrock.js';
import { pathParam } from '../shared/http/request.js';
import { json } from '../shared/http/response.js';
import { trustedAddedBody } from '../shared/keyrock/agents.js';

/**
 * PUT and POST /v1/applications/{applicationId}/trusted_applications/{trustedApplicationId}
 * (Keyrock; POST its older twin): GET /user?app_id=<application> accepts the other's tokens.
 */
export const handler = endpoint('v1-trusted-application-assign', async ({ db, event, caller }) => {
  requireJsonType(event);
  const access = await v1Application(db, caller, pathParam(event, 'applicationId'), 'manage');
  const other = pathParam(event, 'trustedApplicationId');
  await trustApplication(db, access, other);
  return json(201, trustedAddedBody(access.app.clientId, other));
});
