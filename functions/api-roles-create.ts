import { requireProvider } from '../shared/domain/permissions-policy.js';
import { positiveInt, text } from '../shared/domain/validate.js';
import { portalHandler } from '../shared/http/portal.js';
import { jsonBody, pathParam } from '../shared/http/request.js';
import { json } from '../shared/http/response.js';
import { db } from '../shared/store/db.js';
import { createRole } from '../shared/store/roles.js';

/** POST /api/applications/{id}/roles `{name}`: a role of the application's own (Provider only). */
export const handler = portalHandler('POST /api/applications/{id}/roles', async (event, session) => {
  const appId = positiveInt(pathParam(event, 'id'), 'id');
  const name = text(jsonBody(event).name, 'name', { max: 64 });
  await requireProvider(db(), session.userId, appId);
  const role = await createRole(db(), appId, name);
  return json(201, { role: { id: role.id, name: role.name, builtIn: null } });
});
