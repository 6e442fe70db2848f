import { apiTokenInfo } from '../shared/domain/api-tokens.js';
import { endpoint } from '../shared/http/handler.js';
import { subjectToken } from '../shared/http/keyrock.js';
import { json } from '../shared/http/response.js';
import { tokenInfoBody } from '../shared/keyrock/users.js';

/** GET /v1/auth/tokens (Keyrock): the X-Subject-Token's expiry and user, for its owner or an admin. */
export const handler = endpoint('v1-auth-tokens-get', async ({ db, event, caller }) => {
  const subject = subjectToken(event);
  return json(200, tokenInfoBody(subject, await apiTokenInfo(db, caller, subject)));
});
