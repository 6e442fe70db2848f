import { endpoint } from '../shared/http/handler.js';
import type { HttpResult } from '../shared/http/types.js';
import { corsMethods } from '../shared/routes.js';

/**
 * OPTIONS for every CORS-enabled path (Fetch standard preflight): which methods and request
 * headers a cross-origin caller may use. No credentials are ever allowed.
 */
export const handler = endpoint('cors-preflight', async ({ event }): Promise<HttpResult> => {
  const methods = corsMethods(event.rawPath);
  if (methods.length === 0) return { statusCode: 404, headers: {}, body: '' };
  return {
    statusCode: 204,
    headers: {
      'access-control-allow-origin': '*',
      'access-control-allow-methods': [...methods, 'OPTIONS'].join(', '),
      'access-control-allow-headers': 'Authorization, Content-Type',
      'access-control-max-age': '600',
    },
    body: '',
  };
});
