import { sessionView } from '../shared/domain/portal-views.js';
import { portalHandler } from '../shared/http/portal.js';
import { json } from '../shared/http/response.js';
import { db } from '../shared/store/db.js';

/** GET /api/organizations: the organizations the user belongs to, with their role in each. */
export const handler = portalHandler('GET /api/organizations', async (_event, session) =>
  json(200, { organizations: (await sessionView(db(), session)).organizations }),
);
