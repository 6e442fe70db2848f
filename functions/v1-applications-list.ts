import { applicationsOfCaller } from '../shared/domain/application-admin.js';
import { endpoint } from '../shared/http/handler.js';
import { json } from '../shared/http/response.js';
import { applicationInfo } from '../shared/keyrock/applications.js';

/** GET /v1/applications (Keyrock): the applications the caller holds a role in. */
export const handler = endpoint('v1-applications-list', async ({ db, caller }) =>
  json(200, { applications: (await applicationsOfCaller(db, caller)).map((app) => applicationInfo(app)) }),
);
