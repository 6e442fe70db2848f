import { config } from '../shared/config.js';
import { serviceProviderConfig } from '../shared/domain/scim.js';
import { endpoint } from '../shared/http/handler.js';
import { json } from '../shared/http/response.js';

/** GET /v2/ServiceProviderConfigs (Keyrock's SCIM totals). */
export const handler = endpoint('scim-service-provider-configs', async ({ db }) =>
  json(200, await serviceProviderConfig(db, config().documentationUrl)),
);
