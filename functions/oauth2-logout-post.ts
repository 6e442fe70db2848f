import { endpoint } from '../shared/http/handler.js';
import { logoutResponse } from '../shared/http/pages/oauth-pages.js';
import { formBody } from '../shared/http/request.js';
import { endSession } from '../shared/oidc/logout.js';

/**
 * POST /oauth2/logout (RP-Initiated Logout 1.0 §2: the same parameters as a form), also the
 * answer of our confirmation page, which carries the session's CSRF token.
 */
export const handler = endpoint('oauth2-logout-post', async (context) => {
  const form = formBody(context.event);
  return logoutResponse(await endSession({ ...context, csrfToken: form.get('csrf_token') }, form));
});
