import { describe, expect, it } from 'vitest';
import { isValidPkceValue, verifyPkce } from '../../../../shared/oauth/pkce.js';

// RFC 7636 appendix B.
const RFC_VERIFIER = 'dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk';
const RFC_CHALLENGE = 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM';

describe('verifyPkce (S256)', () => {
  it('accepts the RFC 7636 appendix B verifier for its challenge', () => {
    expect(verifyPkce(RFC_CHALLENGE, RFC_VERIFIER)).toBe(true);
  });

  it('refuses another verifier', () => {
    const other = `${RFC_VERIFIER.slice(0, -1)}Y`;
    expect(verifyPkce(RFC_CHALLENGE, other)).toBe(false);
  });

  it('refuses the plain method (verifier sent as its own challenge)', () => {
    expect(verifyPkce(RFC_VERIFIER, RFC_VERIFIER)).toBe(false);
  });

  it('refuses a challenge of another length or in padded base64', () => {
    expect(verifyPkce(RFC_CHALLENGE.slice(0, -1), RFC_VERIFIER)).toBe(false);
    expect(verifyPkce(`${RFC_CHALLENGE}=`, RFC_VERIFIER)).toBe(false);
    expect(verifyPkce('', RFC_VERIFIER)).toBe(false);
  });
});

describe('isValidPkceValue', () => {
  it('accepts the RFC verifier and challenge', () => {
    expect(RFC_VERIFIER).toHaveLength(43);
    expect(isValidPkceValue(RFC_VERIFIER)).toBe(true);
    expect(isValidPkceValue(RFC_CHALLENGE)).toBe(true);
  });

  it.each([
    [42, false],
    [43, true],
    [128, true],
    [129, false],
  ])('a value of %i characters is valid: %s', (length, valid) => {
    expect(isValidPkceValue('a'.repeat(length))).toBe(valid);
  });

  it('accepts every unreserved character: letters, digits, "-", ".", "_", "~"', () => {
    const value = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~';
    expect(isValidPkceValue(value)).toBe(true);
  });

  it.each([
    ['plus', '+'],
    ['slash', '/'],
    ['padding', '='],
    ['space', ' '],
    ['percent', '%'],
    ['newline', '\n'],
    ['non-ASCII letter', 'é'],
  ])('refuses a value with a %s', (_name, bad) => {
    expect(isValidPkceValue(`${'a'.repeat(42)}${bad}`)).toBe(false);
    expect(isValidPkceValue(`${bad}${'a'.repeat(50)}`)).toBe(false);
  });

  it('refuses the empty string', () => {
    expect(isValidPkceValue('')).toBe(false);
  });
});
