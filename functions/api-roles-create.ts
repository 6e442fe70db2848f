import { addRole } from '../shared/domain/catalogue.js';
import { requireProvider } from '../shared/domain/permissions-policy.js';
import { positiveInt, roleName } from '../shared/domain/validate.js';
import { endpoint } from '../shared/http/handler.js';
import { jsonBody, pathParam } from '../shared/http/request.js';
import { json } from '../shared/http/response.js';

/** POST /api/applications/{id}/roles `{name}`: a role of the application's own (Provider only). */
export const handler = endpoint('api-roles-create', async ({ db, event, session }) => {
  const appId = positiveInt(pathParam(event, 'id'), 'id');
  const name = roleName(jsonBody(event).name);
  await requireProvider(db, session.userId, appId);
  const role = await addRole(db, appId, name);
  return json(201, { role: { id: role.id, name: role.name, builtIn: null } });
});
