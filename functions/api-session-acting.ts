import { sessionView } from '../shared/domain/portal-views.js';
import { actFor } from '../shared/domain/sessions.js';
import { positiveInt } from '../shared/domain/validate.js';
import { endpoint } from '../shared/http/handler.js';
import { jsonBody } from '../shared/http/request.js';
import { json } from '../shared/http/response.js';

/** PUT /api/session/acting `{organizationId}` or `{organizationId: null}`: act for an organization or as oneself. */
export const handler = endpoint('api-session-acting', async ({ db, event, session }) => {
  const body = jsonBody(event);
  const orgId =
    body.organizationId === null || body.organizationId === undefined
      ? undefined
      : positiveInt(body.organizationId, 'organizationId');
  return json(200, await sessionView(db, await actFor(db, session, orgId)));
});
