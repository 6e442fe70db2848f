import { requireAuthorizer } from '../shared/domain/permissions-policy.js';
import { changeGrantee, granteeFromPath, roleOf } from '../shared/domain/portal-views.js';
import { positiveInt } from '../shared/domain/validate.js';
import { endpoint } from '../shared/http/handler.js';
import { jsonBody, pathParam } from '../shared/http/request.js';
import { json } from '../shared/http/response.js';

/** PUT /api/applications/{id}/authorizations/{kind}/{granteeId} `{roleId}`: change the role (Provider or Purchaser). */
export const handler = endpoint('api-authorization-update', async ({ db, event, session }) => {
  const appId = positiveInt(pathParam(event, 'id'), 'id');
  const grantee = granteeFromPath(pathParam(event, 'kind'), pathParam(event, 'granteeId'));
  const body = jsonBody(event);
  const { rules } = await requireAuthorizer(db, session.userId, appId);
  const roleId = roleOf(rules, body.roleId);
  await changeGrantee(db, appId, grantee, roleId);
  return json(200, { kind: grantee.kind, id: grantee.id, roleId });
});
