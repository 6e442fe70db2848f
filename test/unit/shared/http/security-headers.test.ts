import { describe, expect, it } from 'vitest';
import { PAGE_CSP, SECURITY_HEADERS, withSecurityHeaders } from '../../../../shared/http/security-headers.js';

const DEFAULTS = {
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'x-frame-options': 'DENY',
  'content-security-policy': "default-src 'none'; frame-ancestors 'none'",
  'strict-transport-security': 'max-age=31536000; includeSubDomains',
};

describe('withSecurityHeaders', () => {
  it('gives every response the security headers', () => {
    expect(withSecurityHeaders(undefined)).toEqual(DEFAULTS);
    expect(withSecurityHeaders({})).toEqual(DEFAULTS);
  });

  it("adds the handler's headers with lowercased names", () => {
    const out = withSecurityHeaders({ 'Content-Type': 'application/json', 'Cache-Control': 'no-store' });
    expect(out).toEqual({ ...DEFAULTS, 'content-type': 'application/json', 'cache-control': 'no-store' });
    expect(out).not.toHaveProperty('Content-Type');
  });

  it("lets the handler's header win over a default, whatever its case", () => {
    const out = withSecurityHeaders({ 'Content-Security-Policy': PAGE_CSP, 'X-Frame-Options': 'SAMEORIGIN' });
    expect(out['content-security-policy']).toBe(PAGE_CSP);
    expect(out['x-frame-options']).toBe('SAMEORIGIN');
    expect(Object.keys(out).filter((k) => k.toLowerCase() === 'content-security-policy')).toHaveLength(1);
  });

  it('leaves the defaults untouched for the next response', () => {
    withSecurityHeaders({ 'x-frame-options': 'SAMEORIGIN' });
    expect(SECURITY_HEADERS['x-frame-options']).toBe('DENY');
    expect(withSecurityHeaders(undefined)['x-frame-options']).toBe('DENY');
  });
});

describe('PAGE_CSP', () => {
  it('allows no inline script and no framing', () => {
    expect(PAGE_CSP).toContain("script-src 'self'");
    expect(PAGE_CSP).not.toContain('unsafe-inline');
    expect(PAGE_CSP).toContain("frame-ancestors 'none'");
  });
});
