import { applicationsOfActor } from '../shared/domain/lookups.js';
import { routeHandler } from '../shared/http/cors.js';
import { queryParams } from '../shared/http/request.js';
import { json } from '../shared/http/response.js';
import { requireAccessToken } from '../shared/oauth/bearer.js';
import { db } from '../shared/store/db.js';

/** GET /applications.json?actor_id= (Keyrock): the applications an actor holds a role in. */
export const handler = routeHandler('GET /applications.json', async (event) => {
  const query = queryParams(event);
  const apps = await applicationsOfActor(db(), query.get('actor_id'), () =>
    requireAccessToken(db(), event, query),
  );
  return json(200, apps, { 'cache-control': 'no-store' });
});
