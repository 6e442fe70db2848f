import { applicationsOfActor } from '../shared/domain/lookups.js';
import { bearerEndpoint } from '../shared/http/bearer-endpoint.js';
import { json } from '../shared/http/response.js';

/** GET /applications.json?actor_id= (Keyrock): the applications an actor holds a role in. */
export const handler = bearerEndpoint('applications-json', async ({ db, query, token }) => {
  const apps = await applicationsOfActor(db, query.get('actor_id'), token());
  return json(200, apps, { 'cache-control': 'no-store' });
});
