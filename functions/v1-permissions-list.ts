import { permissionsOf, v1Application } from '../shared/domain/application-admin.js';
import { endpoint } from '../shared/http/handler.js';
import { pathParam } from '../shared/http/request.js';
import { json } from '../shared/http/response.js';
import {
  INTERNAL_PERMISSIONS,
  internalPermissionBody,
  permissionBody,
} from '../shared/keyrock/applications.js';

/** GET /v1/applications/{applicationId}/permissions (Keyrock): its own and Keyrock's internal ones. */
export const handler = endpoint('v1-permissions-list', async ({ db, event, caller }) => {
  const { app } = await v1Application(db, caller, pathParam(event, 'applicationId'), 'manage');
  const own = (await permissionsOf(db, app.id)).map((p) => permissionBody(p, app.clientId));
  return json(200, {
    permissions: [...own, ...INTERNAL_PERMISSIONS.map((p) => internalPermissionBody(p.id))],
  });
});
