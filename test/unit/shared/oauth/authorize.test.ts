import { describe, expect, it } from 'vitest';
import { authorizeParams } from '../../../../shared/oauth/authorize.js';

describe('authorizeParams', () => {
  it('reads each parameter once, reporting no repetition', () => {
    const result = authorizeParams(new URLSearchParams('response_type=code&client_id=abc&state=x%20y'));
    expect(Object.fromEntries(result.params)).toEqual({
      response_type: 'code',
      client_id: 'abc',
      state: 'x y',
    });
    expect(result).not.toHaveProperty('repeated');
  });

  it('reports the first repeated parameter and keeps its first value', () => {
    const result = authorizeParams(new URLSearchParams('state=1&scope=a&state=2&scope=b'));
    expect(result.repeated).toBe('state');
    expect(result.params.get('state')).toBe('1');
    expect(result.params.get('scope')).toBe('a');
  });

  it('counts an empty value as a value', () => {
    const result = authorizeParams(new URLSearchParams('state=&state=x'));
    expect(result.repeated).toBe('state');
    expect(result.params.get('state')).toBe('');
  });
});
