import { requireAuthorizer } from '../shared/domain/permissions-policy.js';
import { addGrantee, granteeFrom, roleOf } from '../shared/domain/portal-views.js';
import { positiveInt } from '../shared/domain/validate.js';
import { endpoint } from '../shared/http/handler.js';
import { jsonBody, pathParam } from '../shared/http/request.js';
import { json } from '../shared/http/response.js';

/**
 * POST /api/applications/{id}/authorizations `{user: email|nickName, roleId}` or
 * `{organizationId, roleId}` (Provider or Purchaser).
 */
export const handler = endpoint('api-authorizations-create', async ({ db, event, session }) => {
  const appId = positiveInt(pathParam(event, 'id'), 'id');
  const body = jsonBody(event);
  const { rules } = await requireAuthorizer(db, session.userId, appId);
  const roleId = roleOf(rules, body.roleId);
  const grantee = await granteeFrom(db, body);
  await addGrantee(db, appId, grantee, roleId);
  return json(201, { kind: grantee.kind, id: grantee.id, roleId });
});
