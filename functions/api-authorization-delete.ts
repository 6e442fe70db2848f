import { requireAuthorizer } from '../shared/domain/permissions-policy.js';
import { granteeFromPath, removeGrantee } from '../shared/domain/portal-views.js';
import { positiveInt } from '../shared/domain/validate.js';
import { portalHandler } from '../shared/http/portal.js';
import { pathParam } from '../shared/http/request.js';
import { json } from '../shared/http/response.js';
import { db } from '../shared/store/db.js';

/** DELETE /api/applications/{id}/authorizations/{kind}/{granteeId}: every role of that grantee (Provider or Purchaser). */
export const handler = portalHandler(
  'DELETE /api/applications/{id}/authorizations/{kind}/{granteeId}',
  async (event, session) => {
    const appId = positiveInt(pathParam(event, 'id'), 'id');
    const grantee = granteeFromPath(pathParam(event, 'kind'), pathParam(event, 'granteeId'));
    await requireAuthorizer(db(), session.userId, appId);
    await removeGrantee(db(), appId, grantee);
    return json(200, { kind: grantee.kind, id: grantee.id, removed: true });
  },
);
