import { changeApplication, v1Application } from '../shared/domain/application-admin.js';
import { endpoint } from '../shared/http/handler.js';
import { applicationChangesOf } from '../shared/http/keyrock.js';
import { pathParam } from '../shared/http/request.js';
import { json } from '../shared/http/response.js';
import { applicationBody, valuesUpdated } from '../shared/keyrock/applications.js';

/** PATCH /v1/applications/{applicationId} (Keyrock): Provider or an administrator. */
export const handler = endpoint('v1-application-update', async ({ db, event, caller }) => {
  const { app } = await v1Application(db, caller, pathParam(event, 'applicationId'), 'manage');
  const updated = await changeApplication(db, app, applicationChangesOf(event, app));
  return json(200, valuesUpdated('application', applicationBody(app), applicationBody(updated)));
});
