import { requireProvider } from '../shared/domain/permissions-policy.js';
import { positiveInt } from '../shared/domain/validate.js';
import { portalHandler } from '../shared/http/portal.js';
import { pathParam } from '../shared/http/request.js';
import { json } from '../shared/http/response.js';
import { db } from '../shared/store/db.js';
import { deletePermission } from '../shared/store/roles.js';

/** DELETE /api/applications/{id}/permissions/{permissionId} (Provider only). */
export const handler = portalHandler(
  'DELETE /api/applications/{id}/permissions/{permissionId}',
  async (event, session) => {
    const appId = positiveInt(pathParam(event, 'id'), 'id');
    const permissionId = positiveInt(pathParam(event, 'permissionId'), 'permissionId');
    await requireProvider(db(), session.userId, appId);
    await deletePermission(db(), appId, permissionId);
    return json(200, { deleted: permissionId });
  },
);
