import { requireMember } from '../shared/domain/permissions-policy.js';
import { sessionView } from '../shared/domain/portal-views.js';
import { positiveInt } from '../shared/domain/validate.js';
import { portalHandler } from '../shared/http/portal.js';
import { jsonBody } from '../shared/http/request.js';
import { json } from '../shared/http/response.js';
import { db } from '../shared/store/db.js';
import { setActingOrg } from '../shared/store/sessions.js';

/** PUT /api/session/acting `{organizationId}` or `{organizationId: null}`: act for an organization or as oneself. */
export const handler = portalHandler('PUT /api/session/acting', async (event, session) => {
  const body = jsonBody(event);
  const orgId =
    body.organizationId === null || body.organizationId === undefined
      ? undefined
      : positiveInt(body.organizationId, 'organizationId');
  if (orgId !== undefined) await requireMember(db(), orgId, session.userId);
  await setActingOrg(db(), session, orgId);
  return json(200, await sessionView(db(), { ...session, actingOrgId: orgId }));
});
