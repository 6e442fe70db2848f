import { applicationList } from '../shared/domain/portal-views.js';
import { portalHandler } from '../shared/http/portal.js';
import { json } from '../shared/http/response.js';
import { db } from '../shared/store/db.js';

/** GET /api/applications: the applications of whoever the session acts for. */
export const handler = portalHandler('GET /api/applications', async (_event, session) =>
  json(200, { applications: await applicationList(db(), session) }),
);
