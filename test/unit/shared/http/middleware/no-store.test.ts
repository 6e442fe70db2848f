import { describe, expect, it } from 'vitest';
import { noStore } from '../../../../../shared/http/middleware/no-store.js';
import { event, request } from '../../../support/fakes.js';

describe('noStore', () => {
  it('marks an answer uncacheable unless the function chose its own caching', () => {
    const plain = request(event('GET', '/api/session'), { statusCode: 200, headers: {}, body: '{}' });
    noStore().after!(plain);
    expect(plain.response!.headers?.['cache-control']).toBe('no-store');
    const own = request(event('GET', '/api/x'), {
      statusCode: 200,
      headers: { 'cache-control': 'max-age=5' },
    });
    noStore().after!(own);
    expect(own.response!.headers?.['cache-control']).toBe('max-age=5');
  });
});
