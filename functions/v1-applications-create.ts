import { createApplicationFor } from '../shared/domain/application-admin.js';
import { jwtSecretOf } from '../shared/domain/jwt-secrets.js';
import { endpoint } from '../shared/http/handler.js';
import { newApplicationOf } from '../shared/http/keyrock.js';
import { json } from '../shared/http/response.js';
import { createdApplicationBody } from '../shared/keyrock/applications.js';

/** POST /v1/applications (Keyrock): `{application: {name, redirect_uri, …}}`; the caller is Provider. */
export const handler = endpoint('v1-applications-create', async ({ db, event, caller }) => {
  const { app, clientSecret } = await createApplicationFor(db, caller, newApplicationOf(event));
  return json(201, createdApplicationBody(app, clientSecret, await jwtSecretOf(app)));
});
