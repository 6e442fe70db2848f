import { ownPermission, v1Application } from '../shared/domain/application-admin.js';
import { endpoint } from '../shared/http/handler.js';
import { pathParam } from '../shared/http/request.js';
import { json } from '../shared/http/response.js';
import { internalPermissionBody, permissionBody, permissionIdParam } from '../shared/keyrock/applications.js';

/** GET /v1/applications/{applicationId}/permissions/{permissionId} (Keyrock): Provider or an administrator. */
export const handler = endpoint('v1-permission-get', async ({ db, event, caller }) => {
  const { app } = await v1Application(db, caller, pathParam(event, 'applicationId'), 'manage');
  const id = permissionIdParam(pathParam(event, 'permissionId'));
  if ('internal' in id) return json(200, { permission: internalPermissionBody(id.internal) });
  return json(200, { permission: permissionBody(await ownPermission(db, app.id, id.id), app.clientId) });
});
