import { describe, expect, it } from 'vitest';
import { randomToken } from '../../../../shared/crypto.js';
import { accessTokenValue, tokenHint } from '../../../../shared/store/tokens.js';

describe('access token values', () => {
  const random = randomToken(32);

  it('carries the user and application ids, readable back', () => {
    const value = accessTokenValue(4242, 17, random);
    expect(value).toBe(`${(4242).toString(36)}.${(17).toString(36)}.${random}`);
    expect(tokenHint(value)).toEqual({ userId: 4242, appId: 17 });
  });

  it('says "no user" for a client’s own token', () => {
    expect(tokenHint(accessTokenValue(undefined, 3, random))).toEqual({ userId: undefined, appId: 3 });
  });

  it('gives no hint for older or foreign values, or a random part of the wrong length', () => {
    expect(tokenHint(random)).toBeUndefined();
    expect(tokenHint('4.5.short')).toBeUndefined();
    expect(tokenHint(`4.0.${random}`)).toBeUndefined();
    expect(tokenHint(`4.5.${random}x`)).toBeUndefined();
    expect(tokenHint(`4.5.6.${random}`)).toBeUndefined();
  });
});
