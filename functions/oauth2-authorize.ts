import { endpoint } from '../shared/http/handler.js';
import { authorizeResponse } from '../shared/http/pages/oauth-pages.js';
import { requestOrigin } from '../shared/http/request.js';
import { authorizeGet } from '../shared/oauth/authorize-endpoint.js';
import { issuerFor } from '../shared/oauth/metadata.js';

/** GET /oauth2/authorize (RFC 6749 §4.1.1, §4.2.1, OIDC Core §3.1.2). No CORS: a browser navigates here. */
export const handler = endpoint('oauth2-authorize', async (context) =>
  authorizeResponse(
    await authorizeGet(
      { ...context, issuer: issuerFor(requestOrigin(context.event)) },
      context.event.rawQueryString ?? '',
    ),
  ),
);
