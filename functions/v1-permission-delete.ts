import { ownPermission, refuseBuiltIn, v1Application } from '../shared/domain/application-admin.js';
import { removePermission } from '../shared/domain/catalogue.js';
import { endpoint } from '../shared/http/handler.js';
import { pathParam } from '../shared/http/request.js';
import { permissionIdParam } from '../shared/keyrock/applications.js';

/** DELETE /v1/applications/{applicationId}/permissions/{permissionId} (Keyrock); internal ones: 403. */
export const handler = endpoint('v1-permission-delete', async ({ db, event, caller }) => {
  const { app } = await v1Application(db, caller, pathParam(event, 'applicationId'), 'manage');
  const id = permissionIdParam(pathParam(event, 'permissionId'));
  refuseBuiltIn('internal' in id);
  const permission = await ownPermission(db, app.id, (id as { id: number }).id);
  await removePermission(db, app.id, permission.id);
  return { statusCode: 204, headers: {}, body: '' };
});
