import { endpoint } from '../shared/http/handler.js';
import { formBody, header, requestOrigin } from '../shared/http/request.js';
import { noStoreJson } from '../shared/http/response.js';
import { introspect } from '../shared/oauth/introspection.js';
import { issuerFor } from '../shared/oauth/metadata.js';

/** POST /oauth2/introspect (RFC 7662): 200 `{active, …}`; answers about tokens never cached. */
export const handler = endpoint('oauth2-introspect', async ({ db, event }) =>
  noStoreJson(
    await introspect(db, formBody(event), header(event, 'authorization'), issuerFor(requestOrigin(event))),
  ),
);
