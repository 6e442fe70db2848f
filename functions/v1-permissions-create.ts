import { v1Application } from '../shared/domain/application-admin.js';
import { addCheckedPermission } from '../shared/domain/catalogue.js';
import { endpoint } from '../shared/http/handler.js';
import { newPermissionOf } from '../shared/http/keyrock.js';
import { pathParam } from '../shared/http/request.js';
import { json } from '../shared/http/response.js';
import { permissionBody } from '../shared/keyrock/applications.js';

/** POST /v1/applications/{applicationId}/permissions (Keyrock) `{permission: {name, action, resource, …}}`. */
export const handler = endpoint('v1-permissions-create', async ({ db, event, caller }) => {
  const { app } = await v1Application(db, caller, pathParam(event, 'applicationId'), 'manage');
  const permission = await addCheckedPermission(db, app.id, newPermissionOf(event));
  return json(201, { permission: permissionBody(permission, app.clientId) });
});
