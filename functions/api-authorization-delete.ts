import { requireAuthorizer } from '../shared/domain/permissions-policy.js';
import { granteeFromPath, removeGrantee } from '../shared/domain/portal-views.js';
import { positiveInt } from '../shared/domain/validate.js';
import { endpoint } from '../shared/http/handler.js';
import { pathParam } from '../shared/http/request.js';
import { json } from '../shared/http/response.js';

/** DELETE /api/applications/{id}/authorizations/{kind}/{granteeId}: every role of that grantee (Provider or Purchaser). */
export const handler = endpoint('api-authorization-delete', async ({ db, event, session }) => {
  const appId = positiveInt(pathParam(event, 'id'), 'id');
  const grantee = granteeFromPath(pathParam(event, 'kind'), pathParam(event, 'granteeId'));
  await requireAuthorizer(db, session.userId, appId);
  await removeGrantee(db, appId, grantee);
  return json(200, { kind: grantee.kind, id: grantee.id, removed: true });
});
