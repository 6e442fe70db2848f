import { createLocalJWKSet, decodeProtectedHeader, type JSONWebKeySet, jwtVerify } from 'jose';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { rotateKeys } from '../shared/oidc/keys.js';
import type { User } from '../shared/store/users.js';
import {
  basic,
  newApp,
  newUser,
  openidCodeTokens,
  postForm,
  type Registered,
  signedIn,
} from './support/oauth.js';
import { startService, type TestService } from './support/service.js';

/**
 * A signing-key rotation as relying parties and resource servers see it: every token Gatehouse
 * signs (ID tokens, RFC 9068 access tokens for a user and for a client) verifies with jose
 * against the JWKS the service publishes at that moment, before, during and after a rotation;
 * the new key is published before it signs, and the old one stays published until the tokens
 * it signed have expired (docs/operations.md, OIDC Core §10.1.1). The service runs in this
 * process, so the clock moves with a fake Date; DynamoDB Local and the key file are real.
 */
let service: TestService;
let alice: User;
let app: Registered;

beforeAll(async () => {
  service = await startService();
  alice = await newUser(service.db, 'rotation');
  app = await newApp(service.db, alice.id, {
    accessTokenFormat: 'jwt',
    grantTypes: ['authorization_code', 'client_credentials'],
  });
});
afterAll(() => service.close());

const MINUTE = 60_000;

async function published(): Promise<JSONWebKeySet> {
  const res = await fetch(`${service.url}/.well-known/jwks.json`);
  expect(res.status).toBe(200);
  return (await res.json()) as JSONWebKeySet;
}

/** An ID token and a user's JWT access token from the code flow, and a client's JWT. */
async function signedNow(): Promise<string[]> {
  const browser = await signedIn(service.db, alice.id);
  const client = { clientId: app.app.clientId, secret: app.secret };
  const user = await openidCodeTokens(service.url, client, browser, 'rotation');
  const own = await postForm(
    `${service.url}/oauth2/token`,
    { grant_type: 'client_credentials' },
    { authorization: basic(client.clientId, client.secret) },
  );
  expect(own.status).toBe(200);
  return [user.id_token, user.access_token, ((await own.json()) as { access_token: string }).access_token];
}

/** Verifies each token's signature and expiry with the given JWKS; returns the kids that signed. */
async function verified(tokens: string[], jwks: JSONWebKeySet): Promise<string[]> {
  const keys = createLocalJWKSet(jwks);
  const kids: string[] = [];
  for (const token of tokens) {
    const { protectedHeader } = await jwtVerify(token, keys);
    kids.push(protectedHeader.kid!);
  }
  return kids;
}

const kidsOf = (jwks: JSONWebKeySet) => jwks.keys.map((k) => k.kid);

describe('signing-key rotation', () => {
  it('keeps every token verifiable with the published keys before, during and after a rotation', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      const before = await signedNow();
      const [oldKid] = kidsOf(await published());
      expect(await verified(before, await published())).toEqual([oldKid, oldKid, oldKid]);

      // `npx idm keys rotate --alg ES256` against this service's key file.
      const rotated = await rotateKeys('ES256');
      const newKid = rotated.find((k) => k.kid !== oldKid)!.kid;
      expect(newKid).toBeDefined();

      // 11 minutes on, every function has re-read the set: the new key is published, not signing.
      vi.setSystemTime(Date.now() + 11 * MINUTE);
      const during = await published();
      expect(kidsOf(during)).toEqual([oldKid, newKid]);
      expect(await verified(await signedNow(), during)).toEqual([oldKid, oldKid, oldKid]);

      // From 15 minutes the new key signs; the old one stays for what it signed.
      vi.setSystemTime(Date.now() + 5 * MINUTE);
      const after = await signedNow();
      expect(decodeProtectedHeader(after[0]!).alg).toBe('ES256');
      const both = await published();
      expect(kidsOf(both)).toEqual([oldKid, newKid]);
      expect(await verified(after, both)).toEqual([newKid, newKid, newKid]);
      expect(await verified(before, both)).toEqual([oldKid, oldKid, oldKid]);

      // Once every token the old key signed has expired (15 + 10 min + the 1 h lifetime), it goes.
      vi.setSystemTime(Date.now() + 71 * MINUTE);
      const later = await published();
      expect(kidsOf(later)).toEqual([newKid]);
      expect(await verified(await signedNow(), later)).toEqual([newKid, newKid, newKid]);
      await expect(verified(before, later)).rejects.toThrow();
    } finally {
      vi.useRealTimers();
    }
  });
});
