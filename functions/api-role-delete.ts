import { requireProvider } from '../shared/domain/permissions-policy.js';
import { positiveInt } from '../shared/domain/validate.js';
import { portalHandler } from '../shared/http/portal.js';
import { pathParam } from '../shared/http/request.js';
import { json } from '../shared/http/response.js';
import { db } from '../shared/store/db.js';
import { deleteRole } from '../shared/store/roles.js';

/** DELETE /api/applications/{id}/roles/{roleId}: Provider only; Provider and Purchaser stay. */
export const handler = portalHandler(
  'DELETE /api/applications/{id}/roles/{roleId}',
  async (event, session) => {
    const appId = positiveInt(pathParam(event, 'id'), 'id');
    const roleId = positiveInt(pathParam(event, 'roleId'), 'roleId');
    await requireProvider(db(), session.userId, appId);
    await deleteRole(db(), appId, roleId);
    return json(200, { deleted: roleId });
  },
);
