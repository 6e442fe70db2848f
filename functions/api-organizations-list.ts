import { organizationsOf } from '../shared/domain/organizations.js';
import { endpoint } from '../shared/http/handler.js';
import { json } from '../shared/http/response.js';

/** GET /api/organizations: the organizations the user belongs to, with their role in each (as GET /v1/organizations). */
export const handler = endpoint('api-organizations-list', async ({ db, session }) => {
  const own = await organizationsOf(db, session.userId);
  return json(200, { organizations: own.map(({ role, org }) => ({ id: org.id, name: org.name, role })) });
});
