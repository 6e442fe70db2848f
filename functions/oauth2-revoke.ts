import { endpoint } from '../shared/http/handler.js';
import { formBody, header } from '../shared/http/request.js';
import { revoke } from '../shared/oauth/revocation.js';

/** POST /oauth2/revoke (RFC 7009): 200 with an empty body, also for an unknown token (§2.2). */
export const handler = endpoint('oauth2-revoke', async ({ db, event }) => {
  await revoke(db, formBody(event), header(event, 'authorization'));
  return { statusCode: 200, headers: { 'cache-control': 'no-store', pragma: 'no-cache' }, body: '' };
});
