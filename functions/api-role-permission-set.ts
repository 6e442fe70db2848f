import { switchPermission } from '../shared/domain/catalogue.js';
import { requireProvider } from '../shared/domain/permissions-policy.js';
import { positiveInt } from '../shared/domain/validate.js';
import { invalid } from '../shared/errors.js';
import { endpoint } from '../shared/http/handler.js';
import { jsonBody, pathParam } from '../shared/http/request.js';
import { json } from '../shared/http/response.js';

/** PUT /api/applications/{id}/roles/{roleId}/permissions/{permissionId} `{on: boolean}` (Provider only). */
export const handler = endpoint('api-role-permission-set', async ({ db, event, session }) => {
  const appId = positiveInt(pathParam(event, 'id'), 'id');
  const roleId = positiveInt(pathParam(event, 'roleId'), 'roleId');
  const permissionId = positiveInt(pathParam(event, 'permissionId'), 'permissionId');
  const on = jsonBody(event).on;
  if (typeof on !== 'boolean') throw invalid('on must be true or false.', 'on');
  await requireProvider(db, session.userId, appId);
  await switchPermission(db, appId, roleId, permissionId, on);
  return json(200, { roleId, permissionId, on });
});
