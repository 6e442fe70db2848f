import { resetClientSecret } from '../shared/domain/applications.js';
import { requireProvider } from '../shared/domain/permissions-policy.js';
import { positiveInt } from '../shared/domain/validate.js';
import { portalHandler } from '../shared/http/portal.js';
import { pathParam } from '../shared/http/request.js';
import { json } from '../shared/http/response.js';
import { db } from '../shared/store/db.js';

/** POST /api/applications/{id}/secret: a new client secret, shown once; the old one stops working. */
export const handler = portalHandler('POST /api/applications/{id}/secret', async (event, session) => {
  const appId = positiveInt(pathParam(event, 'id'), 'id');
  const { app } = await requireProvider(db(), session.userId, appId);
  return json(200, { clientId: app.clientId, clientSecret: await resetClientSecret(db(), appId) });
});
