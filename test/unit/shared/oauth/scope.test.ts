import { describe, expect, it } from 'vitest';
import { narrowScope, parseScope } from '../../../../shared/oauth/scope.js';
import { thrown } from '../../support/errors.js';

describe('parseScope', () => {
  it.each([undefined, '', '   '])('treats %j as no scope', (raw) => {
    expect(parseScope(raw)).toBeUndefined();
  });

  it('keeps a valid scope as given', () => {
    expect(parseScope('openid profile')).toBe('openid profile');
  });

  it('drops duplicates and extra spaces', () => {
    expect(parseScope('  read  write read ')).toBe('read write');
  });

  it('accepts every character RFC 6749 §3.3 allows in a scope token', () => {
    const chars = ['!', ...Array.from({ length: 0x5b - 0x23 + 1 }, (_, i) => String.fromCharCode(0x23 + i))];
    const rest = Array.from({ length: 0x7e - 0x5d + 1 }, (_, i) => String.fromCharCode(0x5d + i));
    const token = [...chars, ...rest].join('');
    expect(parseScope(token)).toBe(token);
  });

  it.each([
    ['a double quote', 'read "write"', '"write"'],
    ['a backslash', 'read a\\b', 'a\\b'],
    ['a tab', 'read\twrite', 'read\twrite'],
    ['a non-ASCII letter', 'lecture écriture', 'écriture'],
  ])('refuses a token with %s as invalid_scope', (_name, raw, token) => {
    const error = thrown(() => parseScope(raw));
    expect(error).toMatchObject({ kind: 'validation', code: 'invalid_scope', status: 400 });
    expect(error.message).toBe(`The scope "${token}" is not a valid scope token.`);
  });

  it('quotes at most 50 characters of a bad token', () => {
    const error = thrown(() => parseScope(`"${'x'.repeat(100)}`));
    expect(error.message).toBe(`The scope "${`"${'x'.repeat(49)}`}" is not a valid scope token.`);
  });

  it('accepts 1000 characters and refuses 1001', () => {
    const at = 'a'.repeat(1000);
    expect(parseScope(at)).toBe(at);
    const error = thrown(() => parseScope(`${at}b`));
    expect(error).toMatchObject({ kind: 'validation', code: 'invalid_scope' });
    expect(error.message).toBe('The scope is longer than 1000 characters.');
  });
});

describe('narrowScope', () => {
  it('keeps the original scope when none is requested', () => {
    expect(narrowScope('read write', undefined)).toBe('read write');
    expect(narrowScope(undefined, undefined)).toBeUndefined();
  });

  it('grants the requested scope when it is the original or a part of it', () => {
    expect(narrowScope('read write', 'read write')).toBe('read write');
    expect(narrowScope('read write', 'write')).toBe('write');
  });

  it('refuses to widen the scope, naming what was not granted', () => {
    const error = thrown(() => narrowScope('read', 'read write admin'));
    expect(error).toMatchObject({ kind: 'validation', code: 'invalid_scope' });
    expect(error.message).toBe('The scope write admin was not granted originally.');
  });

  it('refuses any scope when none was granted', () => {
    const error = thrown(() => narrowScope(undefined, 'read'));
    expect(error.message).toBe('The scope read was not granted originally.');
  });
});
