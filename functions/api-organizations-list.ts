import { sessionView } from '../shared/domain/portal-views.js';
import { endpoint } from '../shared/http/handler.js';
import { json } from '../shared/http/response.js';

/** GET /api/organizations: the organizations the user belongs to, with their role in each. */
export const handler = endpoint('api-organizations-list', async ({ db, session }) =>
  json(200, { organizations: (await sessionView(db, session)).organizations }),
);
