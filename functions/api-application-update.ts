import { validApplication } from '../shared/domain/applications.js';
import { requireProvider } from '../shared/domain/permissions-policy.js';
import { applicationView } from '../shared/domain/portal-views.js';
import { positiveInt } from '../shared/domain/validate.js';
import { portalHandler } from '../shared/http/portal.js';
import { jsonBody, pathParam } from '../shared/http/request.js';
import { json } from '../shared/http/response.js';
import { updateApplication } from '../shared/store/applications.js';
import { db } from '../shared/store/db.js';

/** PUT /api/applications/{id}: edit name, description, URL and callback URL (Provider only). */
export const handler = portalHandler('PUT /api/applications/{id}', async (event, session) => {
  const appId = positiveInt(pathParam(event, 'id'), 'id');
  const body = jsonBody(event);
  const { app } = await requireProvider(db(), session.userId, appId);
  const fields = validApplication({
    name: body.name,
    description: body.description,
    url: body.url,
    callbackUrl: body.callbackUrl,
    grantTypes: body.grantTypes ?? app.grantTypes,
  });
  return json(200, { application: applicationView(await updateApplication(db(), appId, fields)) });
});
