import { describe, expect, it } from 'vitest';
import { bearerValue } from '../../../../shared/oauth/bearer.js';
import { thrown } from '../../support/errors.js';

const query = (entries: Record<string, string> = {}) => new Map(Object.entries(entries));

describe('bearerValue (RFC 6750 §2)', () => {
  it('takes the token from the Authorization header, any case of the scheme', () => {
    expect(bearerValue('Bearer abc', query())).toBe('abc');
    expect(bearerValue('bearer   abc ', query())).toBe('abc');
  });

  it('takes the token from the access_token query parameter (§2.3, as Keyrock’s clients send it)', () => {
    expect(bearerValue(undefined, query({ access_token: 'abc' }))).toBe('abc');
  });

  it('refuses both ways at once with 400, and no token with the bare 401 challenge', () => {
    expect(thrown(() => bearerValue('Bearer a', query({ access_token: 'b' })))).toMatchObject({
      status: 400,
    });
    expect(thrown(() => bearerValue(undefined, query()))).toMatchObject({ status: 401 });
    expect(thrown(() => bearerValue('Basic abc', query()))).toMatchObject({ status: 401 });
  });
});
