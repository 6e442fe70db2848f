import { refuseBuiltIn, roleByKeyrockId, v1Application } from '../shared/domain/application-admin.js';
import { changeRoleName } from '../shared/domain/catalogue.js';
import { endpoint } from '../shared/http/handler.js';
import { roleChangesOf } from '../shared/http/keyrock.js';
import { pathParam } from '../shared/http/request.js';
import { json } from '../shared/http/response.js';
import { valuesUpdated } from '../shared/keyrock/applications.js';

/** PATCH /v1/applications/{applicationId}/roles/{roleId} (Keyrock) `{role: {name}}`; built-in roles: 403. */
export const handler = endpoint('v1-role-update', async ({ db, event, caller }) => {
  const access = await v1Application(db, caller, pathParam(event, 'applicationId'), 'manage');
  const role = roleByKeyrockId(access, pathParam(event, 'roleId'));
  refuseBuiltIn(role.builtIn !== undefined);
  const name = roleChangesOf(event).name ?? role.name;
  if (name !== role.name) await changeRoleName(db, access.app.id, role.id, name);
  return json(200, valuesUpdated('role', { name: role.name }, { name }));
});
