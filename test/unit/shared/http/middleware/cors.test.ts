import { describe, expect, it } from 'vitest';
import { cors } from '../../../../../shared/http/middleware/cors.js';
import { event, request } from '../../../support/fakes.js';

describe('cors', () => {
  it('allows any origin without credentials and exposes the Bearer challenge, on answers and errors', () => {
    const middleware = cors();
    for (const hook of [middleware.after!, middleware.onError!]) {
      const req = request(event('GET', '/user'), { statusCode: 401, headers: { 'x-kept': '1' }, body: '' });
      hook(req);
      expect(req.response!.headers).toEqual({
        'x-kept': '1',
        'access-control-allow-origin': '*',
        'access-control-expose-headers': 'WWW-Authenticate',
      });
      expect(req.response!.headers?.['access-control-allow-credentials']).toBeUndefined();
    }
  });
});
