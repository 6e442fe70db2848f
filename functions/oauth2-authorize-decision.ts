import { endpoint } from '../shared/http/handler.js';
import { authorizeResponse } from '../shared/http/pages/oauth-pages.js';
import { formBody, requestOrigin } from '../shared/http/request.js';
import { authorizeDecision } from '../shared/oauth/authorize-endpoint.js';
import { issuerFor } from '../shared/oauth/metadata.js';

/** POST /oauth2/authorize: the Allow / Deny of the consent page. No CORS. */
export const handler = endpoint('oauth2-authorize-decision', async (context) =>
  authorizeResponse(
    await authorizeDecision(
      { ...context, issuer: issuerFor(requestOrigin(context.event)) },
      formBody(context.event),
    ),
  ),
);
