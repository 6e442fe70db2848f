import { config } from '../shared/config.js';
import { endpoint } from '../shared/http/handler.js';
import { requestOrigin } from '../shared/http/request.js';
import { json } from '../shared/http/response.js';
import { versionBody } from '../shared/keyrock/version.js';

/** Uptime counts from this process's start (a Lambda container's cold start), as Keyrock's does. */
const startedAt = Date.now();

/** GET /version (Keyrock): the Keyrock API version served, uptime, documentation, API link. */
export const handler = endpoint('version', async ({ event }) =>
  json(
    200,
    versionBody({
      baseUrl: config().publicUrl || requestOrigin(event),
      uptimeMs: Date.now() - startedAt,
      documentationUrl: config().documentationUrl,
    }),
  ),
);
