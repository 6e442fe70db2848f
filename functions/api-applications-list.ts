import { applicationList } from '../shared/domain/portal-views.js';
import { endpoint } from '../shared/http/handler.js';
import { json } from '../shared/http/response.js';

/** GET /api/applications: the applications of whoever the session acts for. */
export const handler = endpoint('api-applications-list', async ({ db, session }) =>
  json(200, { applications: await applicationList(db, session) }),
);
