import { config } from '../shared/config.js';
import { issueApiToken } from '../shared/domain/api-token-issue.js';
import { endpoint } from '../shared/http/handler.js';
import { tokenRequestOf } from '../shared/http/keyrock.js';
import { json } from '../shared/http/response.js';
import { issuedTokenBody } from '../shared/keyrock/users.js';

/** POST /v1/auth/tokens (Keyrock): an API token for an email and password or a live token. */
export const handler = endpoint('v1-auth-tokens-create', async ({ db, event }) => {
  const issued = await issueApiToken(db, tokenRequestOf(event), config().apiTokenTtl);
  return json(201, issuedTokenBody(issued), {
    'x-subject-token': issued.value,
    'cache-control': 'no-store',
  });
});
