import { config } from '../shared/config.js';
import { serviceProviderConfig } from '../shared/domain/scim.js';
import { httpHandler } from '../shared/http/handler.js';
import { json } from '../shared/http/response.js';
import { db } from '../shared/store/db.js';
import { totals } from '../shared/store/stats.js';

/** GET /v2/ServiceProviderConfigs: one GetItem on the totals item, never a Scan. */
export const handler = httpHandler('GET /v2/ServiceProviderConfigs', async () => {
  const body = serviceProviderConfig(await totals(db()), config().documentationUrl);
  return json(200, body);
});
