import { v1Application } from '../shared/domain/application-admin.js';
import { addRole } from '../shared/domain/catalogue.js';
import { endpoint } from '../shared/http/handler.js';
import { newRoleOf } from '../shared/http/keyrock.js';
import { pathParam } from '../shared/http/request.js';
import { json } from '../shared/http/response.js';
import { roleBody } from '../shared/keyrock/applications.js';

/** POST /v1/applications/{applicationId}/roles (Keyrock) `{role: {name}}`: Provider or an administrator. */
export const handler = endpoint('v1-roles-create', async ({ db, event, caller }) => {
  const { app } = await v1Application(db, caller, pathParam(event, 'applicationId'), 'manage');
  const role = await addRole(db, app.id, newRoleOf(event).name);
  return json(201, { role: roleBody(role, app.clientId) });
});
