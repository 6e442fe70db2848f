import { addPermission } from '../shared/domain/catalogue.js';
import { requireProvider } from '../shared/domain/permissions-policy.js';
import { permissionFields, positiveInt } from '../shared/domain/validate.js';
import { endpoint } from '../shared/http/handler.js';
import { jsonBody, pathParam } from '../shared/http/request.js';
import { json } from '../shared/http/response.js';

/** POST /api/applications/{id}/permissions `{name, description, verb, path}` (Provider only). */
export const handler = endpoint('api-permissions-create', async ({ db, event, session }) => {
  const appId = positiveInt(pathParam(event, 'id'), 'id');
  const body = jsonBody(event);
  const input = { name: body.name, description: body.description, verb: body.verb, path: body.path };
  permissionFields(input); // bad input is a 400 before the permission check reads anything
  await requireProvider(db, session.userId, appId);
  return json(201, { permission: await addPermission(db, appId, input) });
});
