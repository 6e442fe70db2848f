import { requireAuthorizer } from '../shared/domain/permissions-policy.js';
import { trustedApplicationsView } from '../shared/domain/trusted-applications.js';
import { positiveInt } from '../shared/domain/validate.js';
import { endpoint } from '../shared/http/handler.js';
import { pathParam } from '../shared/http/request.js';
import { json } from '../shared/http/response.js';

/**
 * GET /api/applications/{id}/trusted-applications: the applications whose tokens GET /user
 * accepts for this one, with their names (Provider or Purchaser, as Keyrock's /v1 list).
 */
export const handler = endpoint('api-trusted-applications-list', async ({ db, event, session }) => {
  const appId = positiveInt(pathParam(event, 'id'), 'id');
  const access = await requireAuthorizer(db, session.userId, appId);
  return json(200, { trustedApplications: await trustedApplicationsView(db, access) });
});
