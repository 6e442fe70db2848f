import { resetClientSecret } from '../shared/domain/applications.js';
import { requireProvider } from '../shared/domain/permissions-policy.js';
import { positiveInt } from '../shared/domain/validate.js';
import { endpoint } from '../shared/http/handler.js';
import { pathParam } from '../shared/http/request.js';
import { json } from '../shared/http/response.js';

/** POST /api/applications/{id}/secret: a new client secret, shown once; the old one stops working. */
export const handler = endpoint('api-application-secret', async ({ db, event, session }) => {
  const appId = positiveInt(pathParam(event, 'id'), 'id');
  const { app } = await requireProvider(db, session.userId, appId);
  return json(200, { clientId: app.clientId, clientSecret: await resetClientSecret(db, appId) });
});
