import { revokeApiToken } from '../shared/domain/api-tokens.js';
import { endpoint } from '../shared/http/handler.js';
import { subjectToken } from '../shared/http/keyrock.js';

/** DELETE /v1/auth/tokens (Keyrock): revokes the X-Subject-Token (its owner's, or any for an admin). */
export const handler = endpoint('v1-auth-tokens-delete', async ({ db, event, caller }) => {
  await revokeApiToken(db, caller, subjectToken(event));
  return { statusCode: 204, headers: {}, body: '' };
});
