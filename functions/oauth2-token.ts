import { endpoint } from '../shared/http/handler.js';
import { formBody, header, requestOrigin } from '../shared/http/request.js';
import { noStoreJson } from '../shared/http/response.js';
import { issuerFor } from '../shared/oauth/metadata.js';
import { tokenEndpoint } from '../shared/oauth/token-endpoint.js';

/** POST /oauth2/token (RFC 6749 §3.2): every grant but the implicit one. */
export const handler = endpoint('oauth2-token', async ({ db, event }) =>
  noStoreJson(
    await tokenEndpoint(db, formBody(event), header(event, 'authorization'), issuerFor(requestOrigin(event))),
  ),
);
