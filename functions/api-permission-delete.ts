import { removePermission } from '../shared/domain/catalogue.js';
import { requireProvider } from '../shared/domain/permissions-policy.js';
import { positiveInt } from '../shared/domain/validate.js';
import { endpoint } from '../shared/http/handler.js';
import { pathParam } from '../shared/http/request.js';
import { json } from '../shared/http/response.js';

/** DELETE /api/applications/{id}/permissions/{permissionId} (Provider only). */
export const handler = endpoint('api-permission-delete', async ({ db, event, session }) => {
  const appId = positiveInt(pathParam(event, 'id'), 'id');
  const permissionId = positiveInt(pathParam(event, 'permissionId'), 'permissionId');
  await requireProvider(db, session.userId, appId);
  await removePermission(db, appId, permissionId);
  return json(200, { deleted: permissionId });
});
