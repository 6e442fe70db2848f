import { describe, expect, it } from 'vitest';
import { securityHeaders } from '../../../../../shared/http/middleware/security-headers.js';
import { event, request } from '../../../support/fakes.js';

describe('securityHeaders', () => {
  it('adds the headers every answer carries, errors included, and keeps a page’s own CSP', () => {
    const middleware = securityHeaders();
    const page = request(event('GET', '/oauth2/authorize'), {
      statusCode: 200,
      headers: { 'Content-Security-Policy': "default-src 'self'" },
      body: '',
    });
    middleware.after!(page);
    expect(page.response!.headers).toMatchObject({
      'x-content-type-options': 'nosniff',
      'x-frame-options': 'DENY',
      'content-security-policy': "default-src 'self'",
    });
    const failed = request(event('GET', '/user'), { statusCode: 500, headers: {}, body: '' });
    middleware.onError!(failed);
    expect(failed.response!.headers?.['strict-transport-security']).toMatch(/^max-age=/);
  });
});
