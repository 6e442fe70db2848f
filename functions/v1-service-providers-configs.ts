import { serviceTotals } from '../shared/domain/scim.js';
import { endpoint } from '../shared/http/handler.js';
import { json } from '../shared/http/response.js';
import { serviceInformationBody } from '../shared/keyrock/users.js';

/** GET /v1/service_providers/configs (Keyrock, administrators): users, organizations, applications. */
export const handler = endpoint('v1-service-providers-configs', async ({ db, caller }) =>
  json(200, serviceInformationBody(await serviceTotals(db, caller))),
);
