import { describe, expect, it } from 'vitest';
import {
  activeKey,
  describeKeys,
  generateSigningKey,
  KEY_SET_MAX_AGE,
  PUBLISH_LEAD,
  parseKeySet,
  publicJwk,
  publishedKeys,
  withNewKey,
} from '../../../../shared/oidc/keys.js';

const LIFETIME = 3600;
const T0 = 1_000_000;

describe('key rotation by timestamps', () => {
  it('signs with the first key at once; a rotation publishes the next before it signs, then retires the old', async () => {
    const first = withNewKey({ keys: [] }, await generateSigningKey('RS256', T0), T0, LIFETIME);
    expect(activeKey(first, T0)?.kid).toBe(first.keys[0]!.kid);

    const T1 = T0 + 86_400;
    const second = withNewKey(first, await generateSigningKey('ES256', T1), T1, LIFETIME);
    const [oldKey, newKey] = second.keys as [(typeof second.keys)[0], (typeof second.keys)[0]];
    expect(newKey.notBefore).toBe(T1 + PUBLISH_LEAD);
    // Published at once, signing only after the lead.
    expect(publishedKeys(second, T1, LIFETIME).map((k) => k.kid)).toEqual([oldKey.kid, newKey.kid]);
    expect(activeKey(second, T1 + PUBLISH_LEAD - 1)?.kid).toBe(oldKey.kid);
    expect(activeKey(second, T1 + PUBLISH_LEAD)?.kid).toBe(newKey.kid);
    // The old key stays published while its last tokens (and a stale signer's) may live.
    const retires = T1 + PUBLISH_LEAD + KEY_SET_MAX_AGE + LIFETIME;
    expect(publishedKeys(second, retires - 1, LIFETIME)).toHaveLength(2);
    expect(publishedKeys(second, retires, LIFETIME).map((k) => k.kid)).toEqual([newKey.kid]);
    expect(describeKeys(second, T1, LIFETIME).map((k) => k.state)).toEqual(['active', 'next']);
    expect(describeKeys(second, retires, LIFETIME).map((k) => k.state)).toEqual(['retired', 'active']);

    // The next rotation drops what is no longer published.
    const third = withNewKey(second, await generateSigningKey('RS256', retires), retires, LIFETIME);
    expect(third.keys.map((k) => k.kid)).toEqual([newKey.kid, third.keys[1]!.kid]);
  });

  it('publishes public members only, with kid, alg and use', async () => {
    const rsa = await generateSigningKey('RS256', T0);
    expect(rsa.privateJwk.d).toEqual(expect.any(String));
    const jwk = publicJwk(rsa);
    expect(jwk).toEqual({
      kty: 'RSA',
      n: rsa.privateJwk.n,
      e: 'AQAB',
      kid: rsa.kid,
      alg: 'RS256',
      use: 'sig',
    });
    const ec = publicJwk(await generateSigningKey('ES256', T0));
    expect(Object.keys(ec).sort()).toEqual(['alg', 'crv', 'kid', 'kty', 'use', 'x', 'y']);
  });

  it('refuses a malformed stored set with a sentence', () => {
    expect(() => parseKeySet('nope')).toThrow(/not JSON/);
    expect(() => parseKeySet('{}')).toThrow(/no "keys" array/);
    expect(() => parseKeySet('{"keys":[{"kid":"a","alg":"HS256"}]}')).toThrow(/malformed key/);
  });
});
