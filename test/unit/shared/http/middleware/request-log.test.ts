import { afterEach, describe, expect, it, vi } from 'vitest';
import { requestLog } from '../../../../../shared/http/middleware/request-log.js';
import { logger } from '../../../../../shared/log.js';
import { event, request } from '../../../support/fakes.js';

afterEach(() => vi.restoreAllMocks());

describe('requestLog', () => {
  it('logs one line per request with the route, status and duration, on errors too', async () => {
    const info = vi.spyOn(logger, 'info').mockImplementation(() => undefined);
    const middleware = requestLog('GET /user');
    for (const [hook, status] of [
      [middleware.after!, 200],
      [middleware.onError!, 401],
    ] as const) {
      const req = request(event('GET', '/user?access_token=secret'), { statusCode: status, body: '' });
      await middleware.before!(req);
      await hook(req);
      expect(info).toHaveBeenLastCalledWith(
        'request',
        expect.objectContaining({ requestId: 'req-1', route: 'GET /user', path: '/user', status }),
      );
      const fields = info.mock.lastCall![1] as { durationMs: number };
      expect(fields.durationMs).toBeGreaterThanOrEqual(0);
    }
    expect(info).toHaveBeenCalledTimes(2);
    expect(JSON.stringify(info.mock.calls)).not.toContain('secret');
  });
});
