import { removeRole } from '../shared/domain/catalogue.js';
import { requireProvider } from '../shared/domain/permissions-policy.js';
import { positiveInt } from '../shared/domain/validate.js';
import { endpoint } from '../shared/http/handler.js';
import { pathParam } from '../shared/http/request.js';
import { json } from '../shared/http/response.js';

/** DELETE /api/applications/{id}/roles/{roleId}: Provider only; Provider and Purchaser stay. */
export const handler = endpoint('api-role-delete', async ({ db, event, session }) => {
  const appId = positiveInt(pathParam(event, 'id'), 'id');
  const roleId = positiveInt(pathParam(event, 'roleId'), 'roleId');
  await requireProvider(db, session.userId, appId);
  await removeRole(db, appId, roleId);
  return json(200, { deleted: roleId });
});
