import { describe, expect, it } from 'vitest';
import { nextStep, parseMaxAge, parsePrompt } from '../../../../shared/oidc/prompt.js';

const NOW = 1_000_000;
const step = (
  prompt: string | undefined,
  session: { authTime: number | undefined } | undefined,
  consented: boolean,
  maxAge?: number,
) => nextStep({ prompt: parsePrompt(prompt) as Set<string>, maxAge, session, consented, now: NOW });

describe('parsePrompt and parseMaxAge', () => {
  it('reads space-separated values and refuses unknown ones and none with others', () => {
    expect(parsePrompt('login consent')).toEqual(new Set(['login', 'consent']));
    expect(parsePrompt(undefined)).toEqual(new Set());
    expect(parsePrompt('select_account')).toEqual(new Set(['select_account']));
    expect(parsePrompt('none login')).toBe('prompt=none cannot be combined with other values.');
    expect(parsePrompt('always')).toBe('prompt value always is not supported.');
  });

  it('takes max_age as non-negative integer seconds', () => {
    expect(parseMaxAge('0')).toBe(0);
    expect(parseMaxAge('3600')).toBe(3600);
    expect(parseMaxAge(undefined)).toBeUndefined();
    for (const bad of ['-1', '1.5', 'soon', '']) expect(typeof parseMaxAge(bad)).toBe('string');
  });
});

describe('nextStep', () => {
  const recent = { authTime: NOW - 30 };

  it('signs in a signed-out user, or answers login_required under prompt=none', () => {
    expect(step(undefined, undefined, false)).toEqual({ kind: 'sign-in', again: false });
    expect(step('none', undefined, true)).toMatchObject({ kind: 'error', error: 'login_required' });
  });

  it('asks for consent once, then issues; prompt=consent asks again', () => {
    expect(step(undefined, recent, false)).toEqual({ kind: 'consent' });
    expect(step(undefined, recent, true)).toEqual({ kind: 'issue' });
    expect(step('consent', recent, true)).toEqual({ kind: 'consent' });
    expect(step('none', recent, false)).toMatchObject({ kind: 'error', error: 'consent_required' });
    expect(step('none', recent, true)).toEqual({ kind: 'issue' });
  });

  it('prompt=login signs in again whatever the session', () => {
    expect(step('login', recent, true)).toEqual({ kind: 'sign-in', again: true });
  });

  it('max_age: signs in again only when the sign-in is older, or its time unknown', () => {
    expect(step(undefined, recent, true, 30)).toEqual({ kind: 'issue' });
    expect(step(undefined, recent, true, 29)).toEqual({ kind: 'sign-in', again: true });
    expect(step(undefined, { authTime: undefined }, true, 3600)).toEqual({ kind: 'sign-in', again: true });
    expect(step('none', recent, true, 10)).toMatchObject({ kind: 'error', error: 'login_required' });
    // Without max_age a session of unknown age is fine.
    expect(step(undefined, { authTime: undefined }, true)).toEqual({ kind: 'issue' });
  });
});
