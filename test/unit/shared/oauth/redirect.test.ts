import { describe, expect, it } from 'vitest';
import { redirectWith } from '../../../../shared/oauth/redirect.js';

describe('redirectWith', () => {
  const callback = 'https://client.example/cb';

  it('puts a code and the state in the query', () => {
    const url = redirectWith({ redirectUri: callback, mode: 'query', state: 'xyz' }, { code: 'abc' });
    expect(url).toBe('https://client.example/cb?code=abc&state=xyz');
  });

  it('keeps the callback URL query string and adds to it', () => {
    const url = redirectWith(
      { redirectUri: `${callback}?tenant=1`, mode: 'query', state: 'xyz' },
      { code: 'abc' },
    );
    expect(url).toBe('https://client.example/cb?tenant=1&code=abc&state=xyz');
    expect(new URL(url).searchParams.get('tenant')).toBe('1');
  });

  it('puts an implicit grant token in the fragment, leaving the query alone', () => {
    const url = redirectWith(
      { redirectUri: `${callback}?tenant=1`, mode: 'fragment', state: 'xyz' },
      { access_token: 't0k', token_type: 'bearer', expires_in: '3600' },
    );
    expect(url).toBe(
      'https://client.example/cb?tenant=1#access_token=t0k&token_type=bearer&expires_in=3600&state=xyz',
    );
  });

  it('leaves out the state when the client sent none, and values that are undefined', () => {
    const url = redirectWith(
      { redirectUri: callback, mode: 'query' },
      { error: 'access_denied', error_description: undefined },
    );
    expect(url).toBe('https://client.example/cb?error=access_denied');
  });

  it('encodes values so that they come back intact', () => {
    const state = 'a b&c=d#e/é';
    const url = redirectWith(
      { redirectUri: callback, mode: 'query', state },
      { error: 'invalid_request', error_description: 'response_type is missing.' },
    );
    const params = new URL(url).searchParams;
    expect(params.get('state')).toBe(state);
    expect(params.get('error_description')).toBe('response_type is missing.');
    expect(new URL(url).hash).toBe('');
  });

  it('encodes values in the fragment too', () => {
    const url = redirectWith(
      { redirectUri: callback, mode: 'fragment', state: 'a&b' },
      { access_token: 'x' },
    );
    const fragment = new URLSearchParams(new URL(url).hash.slice(1));
    expect(fragment.get('state')).toBe('a&b');
    expect(fragment.get('access_token')).toBe('x');
  });
});
