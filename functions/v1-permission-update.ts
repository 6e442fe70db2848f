import { ownPermission, refuseBuiltIn, v1Application } from '../shared/domain/application-admin.js';
import { changePermission } from '../shared/domain/catalogue.js';
import { endpoint } from '../shared/http/handler.js';
import { permissionChangesOf } from '../shared/http/keyrock.js';
import { pathParam } from '../shared/http/request.js';
import { json } from '../shared/http/response.js';
import { permissionIdParam, permissionValues, valuesUpdated } from '../shared/keyrock/applications.js';

/** PATCH /v1/applications/{applicationId}/permissions/{permissionId} (Keyrock); internal ones: 403. */
export const handler = endpoint('v1-permission-update', async ({ db, event, caller }) => {
  const { app } = await v1Application(db, caller, pathParam(event, 'applicationId'), 'manage');
  const id = permissionIdParam(pathParam(event, 'permissionId'));
  refuseBuiltIn('internal' in id);
  const current = await ownPermission(db, app.id, (id as { id: number }).id);
  const fields = permissionChangesOf(event, current);
  const before = permissionValues(current);
  const after = permissionValues(fields);
  if (JSON.stringify(before) !== JSON.stringify(after)) await changePermission(db, { ...current, ...fields });
  return json(200, valuesUpdated('permission', before, after));
});
