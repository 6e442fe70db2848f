import { editApplication } from '../shared/domain/applications.js';
import { requireProvider } from '../shared/domain/permissions-policy.js';
import { applicationView } from '../shared/domain/portal-views.js';
import { positiveInt } from '../shared/domain/validate.js';
import { endpoint } from '../shared/http/handler.js';
import { jsonBody, pathParam } from '../shared/http/request.js';
import { json } from '../shared/http/response.js';

/** PUT /api/applications/{id}: edit name, description, URLs, grants, token format and types, post-logout URIs (Provider only). */
export const handler = endpoint('api-application-update', async ({ db, event, session }) => {
  const appId = positiveInt(pathParam(event, 'id'), 'id');
  const body = jsonBody(event);
  const { app } = await requireProvider(db, session.userId, appId);
  const updated = await editApplication(db, app, {
    name: body.name,
    description: body.description,
    url: body.url,
    callbackUrl: body.callbackUrl,
    grantTypes: body.grantTypes,
    accessTokenFormat: body.accessTokenFormat,
    postLogoutRedirectUris: body.postLogoutRedirectUris,
    tokenTypes: body.tokenTypes,
  });
  return json(200, { application: applicationView(updated) });
});
