import { describe, expect, it } from 'vitest';
import { checkRegex, REGEX_LIMITS } from '../../../../shared/keyrock/regex.js';

const reason = (pattern: string) => {
  const verdict = checkRegex(pattern);
  return verdict.ok ? 'ok' : verdict.reason;
};

describe('checkRegex', () => {
  it('accepts the patterns PEP proxies use, compiled case-insensitively as Keyrock runs them', () => {
    for (const pattern of [
      '^/v2/entities/[^/]+$',
      '/v2/entities/.*',
      '^/v2/(entities|types)/[a-z0-9_-]{1,64}/attrs$',
      '^/api/v\\d+/items\\?page=\\d+$',
      '(?:/foo)?/bar',
      '[(*+)]+',
      '\\(a+\\)+',
      'a{2,5}b{3}',
    ]) {
      expect(reason(pattern), pattern).toBe('ok');
    }
    const verdict = checkRegex('^/V2/Entities$');
    expect(verdict.ok && verdict.regex.test('/v2/entities')).toBe(true);
  });

  it('refuses nested quantifiers and repeated alternations (exponential backtracking)', () => {
    for (const pattern of [
      '(a+)+',
      '(a*)*b',
      '((ab)+c)+',
      '(a|a)*',
      '(?:x|y)+z',
      '(a{1,3}){2,}',
      '([a-z]+/)+$',
    ]) {
      expect(reason(pattern), pattern).toMatch(/nested quantifiers/);
    }
  });

  it('refuses backreferences and lookarounds', () => {
    expect(reason('(a)\\1')).toMatch(/Backreferences/);
    expect(reason('(?<n>a)\\k<n>')).toMatch(/Backreferences/);
    for (const pattern of ['(?=a)b', '(?!a)b', '(?<=a)b', '(?<!a)b'])
      expect(reason(pattern)).toMatch(/Lookarounds/);
  });

  it('bounds the length, bounded repeats and the number of unbounded repeats', () => {
    expect(reason('a'.repeat(REGEX_LIMITS.length))).toBe('ok');
    expect(reason('a'.repeat(REGEX_LIMITS.length + 1))).toMatch(/at most/);
    expect(reason(`a{${REGEX_LIMITS.repeat}}`)).toBe('ok');
    expect(reason(`a{1,${REGEX_LIMITS.repeat + 1}}`)).toMatch(/Repeats/);
    expect(reason('.*x.*')).toBe('ok');
    expect(reason('.*x.*y.*')).toMatch(/unbounded/);
    expect(reason('a+b+c{2,}')).toMatch(/unbounded/);
  });

  it('refuses what RegExp itself refuses, and the empty pattern', () => {
    expect(reason('[')).toMatch(/not a valid/);
    expect(reason('a)')).toMatch(/not a valid/);
    expect(reason('')).toMatch(/empty/);
  });

  it('keeps a rejected pattern from hanging: the checker itself is linear', () => {
    const started = Date.now();
    expect(reason(`${'('.repeat(60)}a${')+'.repeat(60)}`)).not.toBe('ok');
    expect(Date.now() - started).toBeLessThan(100);
  });
});
