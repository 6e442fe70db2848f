import { describe, expect, it } from 'vitest';
import { looksLikeJwt } from '../../../../shared/domain/access-tokens.js';
import { accessTokenValue } from '../../../../shared/store/tokens.js';

describe('looksLikeJwt', () => {
  it('tells a JWS compact value from the opaque access tokens Gatehouse issues', () => {
    const opaque = accessTokenValue(42, 7, 'A'.repeat(43));
    expect(looksLikeJwt(opaque)).toBe(false);
    expect(looksLikeJwt(accessTokenValue(undefined, 1, 'z'.repeat(43)))).toBe(false);
    expect(looksLikeJwt('eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiIxIn0.c2ln')).toBe(true);
    expect(looksLikeJwt('eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiIxIn0')).toBe(false);
    expect(looksLikeJwt(`eyJ${'a'.repeat(9000)}.b.c`)).toBe(false);
  });
});
