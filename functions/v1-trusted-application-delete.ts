import { v1Application } from '../shared/domain/application-admin.js';
import { distrustApplication } from '../shared/domain/trusted-applications.js';
import { endpoint } from '../shared/http/handler.js';
import { pathParam } from '../shared/http/request.js';

/** DELETE /v1/applications/{applicationId}/trusted_applications/{trustedApplicationId} (Keyrock). */
export const handler = endpoint('v1-trusted-application-delete', async ({ db, event, caller }) => {
  const access = await v1Application(db, caller, pathParam(event, 'applicationId'), 'manage');
  await distrustApplication(db, access, pathParam(event, 'trustedApplicationId'));
  return { statusCode: 204, headers: {}, body: '' };
});
