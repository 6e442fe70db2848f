import { registerApplication } from '../shared/domain/applications.js';
import { actingOwner, applicationView } from '../shared/domain/portal-views.js';
import { endpoint } from '../shared/http/handler.js';
import { jsonBody } from '../shared/http/request.js';
import { json } from '../shared/http/response.js';

/**
 * POST /api/applications: step 1 of registration. The owner is the organization the session acts
 * for, else the user. The client secret is in this answer and nowhere else, ever.
 */
export const handler = endpoint('api-applications-create', async ({ db, event, session }) => {
  const body = jsonBody(event);
  const owner = await actingOwner(db, session);
  const { app, clientSecret } = await registerApplication(db, owner, {
    name: body.name,
    description: body.description,
    url: body.url,
    callbackUrl: body.callbackUrl,
  });
  return json(201, { application: applicationView(app), clientSecret });
});
