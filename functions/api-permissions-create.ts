import { requireProvider } from '../shared/domain/permissions-policy.js';
import { httpVerb, optionalText, positiveInt, resourcePath, text } from '../shared/domain/validate.js';
import { portalHandler } from '../shared/http/portal.js';
import { jsonBody, pathParam } from '../shared/http/request.js';
import { json } from '../shared/http/response.js';
import { db } from '../shared/store/db.js';
import { createPermission } from '../shared/store/roles.js';

/** POST /api/applications/{id}/permissions `{name, description, verb, path}` (Provider only). */
export const handler = portalHandler('POST /api/applications/{id}/permissions', async (event, session) => {
  const appId = positiveInt(pathParam(event, 'id'), 'id');
  const body = jsonBody(event);
  const input = {
    name: text(body.name, 'name', { max: 64 }),
    description: optionalText(body.description, 'description', 500),
    verb: httpVerb(body.verb),
    path: resourcePath(body.path),
  };
  await requireProvider(db(), session.userId, appId);
  return json(201, { permission: await createPermission(db(), appId, input) });
});
