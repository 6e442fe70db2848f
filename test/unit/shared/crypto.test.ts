import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { constantTimeEqual, randomToken, sha256 } from '../../../shared/crypto.js';

describe('randomToken', () => {
  it('gives 256 bits as 43 URL-safe characters by default', () => {
    const token = randomToken();
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(Buffer.from(token, 'base64url')).toHaveLength(32);
  });

  it('gives the number of bytes asked for', () => {
    expect(Buffer.from(randomToken(16), 'base64url')).toHaveLength(16);
    expect(randomToken(16)).toMatch(/^[A-Za-z0-9_-]{22}$/);
  });

  it('never repeats itself', () => {
    const tokens = new Set(Array.from({ length: 100 }, () => randomToken()));
    expect(tokens.size).toBe(100);
  });
});

describe('sha256', () => {
  it.each([
    ['', 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855'],
    ['abc', 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad'],
    [
      'The quick brown fox jumps over the lazy dog',
      'd7a8fbb307d7809469ca9abcb0082e4f8d5651e46d3cdb762d02d0bf37c9e592',
    ],
  ])('digests %j to the published hex value', (input, digest) => {
    expect(sha256(input)).toBe(digest);
  });

  it('digests the UTF-8 bytes of non-ASCII text', () => {
    const utf8 = createHash('sha256')
      .update(Buffer.from([0xc3, 0xa9]))
      .digest('hex');
    expect(sha256('é')).toBe(utf8);
  });
});

describe('constantTimeEqual', () => {
  it('is true for equal strings, the empty one included', () => {
    expect(constantTimeEqual('secret', 'secret')).toBe(true);
    expect(constantTimeEqual('', '')).toBe(true);
    expect(constantTimeEqual('ünïcode', 'ünïcode')).toBe(true);
  });

  it('is false for strings of the same length that differ anywhere', () => {
    expect(constantTimeEqual('secret', 'Secret')).toBe(false);
    expect(constantTimeEqual('secret', 'secreT')).toBe(false);
  });

  it('is false for strings of different lengths', () => {
    expect(constantTimeEqual('secret', 'secret!')).toBe(false);
    expect(constantTimeEqual('', 'a')).toBe(false);
  });

  it('compares bytes, not characters', () => {
    // Same character count, different UTF-8 byte counts.
    expect(constantTimeEqual('é', 'e')).toBe(false);
  });
});
