import { deleteApplicationOf, v1Application } from '../shared/domain/application-admin.js';
import { endpoint } from '../shared/http/handler.js';
import { pathParam } from '../shared/http/request.js';

/** DELETE /v1/applications/{applicationId} (Keyrock): Provider or an administrator. */
export const handler = endpoint('v1-application-delete', async ({ db, event, caller }) => {
  const access = await v1Application(db, caller, pathParam(event, 'applicationId'), 'manage');
  await deleteApplicationOf(db, access);
  return { statusCode: 204, headers: {}, body: '' };
});
