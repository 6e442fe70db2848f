import { endpoint } from '../shared/http/handler.js';
import { logoutResponse } from '../shared/http/pages/oauth-pages.js';
import { queryParams } from '../shared/http/request.js';
import { endSession } from '../shared/oidc/logout.js';

/**
 * GET /oauth2/logout (OpenID Connect RP-Initiated Logout 1.0 §2): ends the portal session when
 * a valid id_token_hint names the signed-in user, else asks first (§6); redirects only to a
 * post-logout URI the client registered (§3). No CORS: a browser navigates here.
 */
export const handler = endpoint('oauth2-logout', async (context) =>
  logoutResponse(await endSession(context, queryParams(context.event))),
);
