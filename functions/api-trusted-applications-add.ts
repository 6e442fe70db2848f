import { requireProvider } from '../shared/domain/permissions-policy.js';
import { trustApplication } from '../shared/domain/trusted-applications.js';
import { positiveInt, text } from '../shared/domain/validate.js';
import { endpoint } from '../shared/http/handler.js';
import { jsonBody, pathParam } from '../shared/http/request.js';
import { json } from '../shared/http/response.js';

/** POST /api/applications/{id}/trusted-applications `{clientId}`: trust another application (Provider only). */
export const handler = endpoint('api-trusted-applications-add', async ({ db, event, session }) => {
  const appId = positiveInt(pathParam(event, 'id'), 'id');
  const clientId = text(jsonBody(event).clientId, 'clientId', { max: 64 });
  const access = await requireProvider(db, session.userId, appId);
  await trustApplication(db, access, clientId);
  return json(201, { clientId });
});
