import { calculateJwkThumbprint, exportJWK, generateKeyPair, importJWK, type JWK } from 'jose';
import { config } from '../config.js';
import { SIGNING_ALGS, type SigningAlg } from '../model.js';
import { createFirstKeySetDocument, readKeySetDocument, writeKeySetDocument } from '../store/signing-keys.js';
import { nowSeconds } from '../time.js';

/**
 * The signing key set: asymmetric keys generated here with jose, each named by its RFC 7638
 * thumbprint (`kid`), RS256 by default (the algorithm every OpenID Connect client must accept,
 * OIDC Core §15.1) and ES256 on request. Rotation is driven by timestamps alone, so nothing has
 * to run at the moment a key changes:
 *
 * - a new key is published in the JWKS at once and signs only from `notBefore`, PUBLISH_LEAD
 *   later: by then every function has re-read the set and every client's cached JWKS has expired
 *   (OIDC Core §10.1.1: publish a key before signing with it);
 * - the key it replaces stays published for the longest signed token's lifetime after that, plus
 *   the re-read interval of a warm function that may still sign with it, then drops out.
 *
 * The pure functions take `now` and the longest lifetime, so tests need no clock.
 */
export interface StoredKey {
  kid: string;
  alg: SigningAlg;
  /** Epoch seconds. */
  createdAt: number;
  /** Signs from this time on (epoch seconds); published from `createdAt`. */
  notBefore: number;
  privateJwk: JWK;
}

export interface KeySet {
  keys: StoredKey[];
}

/** A function reads the set once per cold start, and again once it is this old (seconds). */
export const KEY_SET_MAX_AGE = 600;
/** How long clients may cache the JWKS (its Cache-Control max-age, seconds). */
export const JWKS_MAX_AGE = 300;
/** A new key signs only this long after it was published. */
export const PUBLISH_LEAD = KEY_SET_MAX_AGE + JWKS_MAX_AGE;

/** The longest lifetime of a token this service signs (ID tokens and JWT access tokens). */
export function longestSignedLifetime(): number {
  return config().accessTokenTtl;
}

const byActivation = (a: StoredKey, b: StoredKey) => a.notBefore - b.notBefore || a.createdAt - b.createdAt;

/** The key that signs at `now`: the most recently activated one. */
export function activeKey(set: KeySet, now: number): StoredKey | undefined {
  return set.keys
    .filter((k) => k.notBefore <= now)
    .sort(byActivation)
    .at(-1);
}

/**
 * Keys a verifier must know at `now`: those still to come, the active one, and each retired one
 * while a token it signed may still be live.
 */
export function publishedKeys(set: KeySet, now: number, lifetime: number): StoredKey[] {
  const sorted = [...set.keys].sort(byActivation);
  return sorted.filter((_key, i) => {
    const successor = sorted.slice(i + 1).find((k) => k.notBefore <= now);
    if (!successor) return true;
    return now < successor.notBefore + KEY_SET_MAX_AGE + lifetime;
  });
}

/** A new key of `alg`, not yet in any set. */
export async function generateSigningKey(alg: SigningAlg, now: number): Promise<StoredKey> {
  const { privateKey } = await generateKeyPair(alg, { extractable: true });
  const privateJwk = await exportJWK(privateKey);
  const kid = await calculateJwkThumbprint(publicJwkOf(privateJwk));
  return { kid, alg, createdAt: now, notBefore: now, privateJwk };
}

/**
 * Adds `key` to the set: signing at once when nothing signs yet (the first key), otherwise
 * PUBLISH_LEAD from now. Keys no longer published are dropped.
 */
export function withNewKey(set: KeySet, key: StoredKey, now: number, lifetime: number): KeySet {
  const notBefore = activeKey(set, now) ? now + PUBLISH_LEAD : now;
  return { keys: [...publishedKeys(set, now, lifetime), { ...key, createdAt: now, notBefore }] };
}

const PRIVATE_MEMBERS = new Set(['d', 'p', 'q', 'dp', 'dq', 'qi', 'oth', 'k']);

function publicJwkOf(privateJwk: JWK): JWK {
  return Object.fromEntries(Object.entries(privateJwk).filter(([name]) => !PRIVATE_MEMBERS.has(name)));
}

/** RFC 7517 §4: the public half as published, with its kid, alg and use. */
export function publicJwk(key: StoredKey): JWK {
  return { ...publicJwkOf(key.privateJwk), kid: key.kid, alg: key.alg, use: 'sig' };
}

/**
 * The stored set, or an empty one where there is none yet: no file, or the random placeholder
 * CloudFormation puts in a new secret (it cannot create one empty; infra/data.ts).
 */
function storedSet(text: string | undefined): KeySet {
  return text?.trimStart().startsWith('{') ? parseKeySet(text) : { keys: [] };
}

/** Reads a stored document; a malformed one is an operator's error, said in one sentence. */
export function parseKeySet(text: string): KeySet {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new Error('The signing key set is not JSON; run `npx idm keys rotate` to write a new one.');
  }
  const keys = (parsed as { keys?: unknown })?.keys;
  if (!Array.isArray(keys)) throw new Error('The signing key set has no "keys" array.');
  for (const k of keys as StoredKey[]) {
    const ok =
      typeof k?.kid === 'string' &&
      SIGNING_ALGS.includes(k.alg) &&
      Number.isInteger(k.createdAt) &&
      Number.isInteger(k.notBefore) &&
      typeof k.privateJwk === 'object';
    if (!ok) throw new Error('The signing key set holds a malformed key.');
  }
  return { keys: keys as StoredKey[] };
}

let loaded: { set: Promise<KeySet>; readAt: number } | undefined;

/**
 * The key set, read once per cold start and again after KEY_SET_MAX_AGE (so a warm function
 * learns of a rotation before the key it signs with is retired). A local run without keys makes
 * its first one, and so does a new stack (its secret starts with a placeholder; docs/operations.md).
 */
export function keySet(now = nowSeconds()): Promise<KeySet> {
  if (!loaded || now - loaded.readAt >= KEY_SET_MAX_AGE) {
    const set = readOrCreate(now);
    loaded = { set, readAt: now };
    set.catch(() => {
      if (loaded?.set === set) loaded = undefined;
    });
  }
  return loaded.set;
}

async function readOrCreate(now: number): Promise<KeySet> {
  const text = await readKeySetDocument();
  const set = storedSet(text);
  if (set.keys.length > 0) return set;
  // No key yet (a new local data folder, or the placeholder a new stack's secret starts with):
  // the first process that needs one makes it, and any other reads the winner's.
  const first = withNewKey(set, await generateSigningKey('RS256', now), now, longestSignedLifetime());
  if (await createFirstKeySetDocument(JSON.stringify(first))) return first;
  const winner = storedSet(await readKeySetDocument());
  if (winner.keys.length === 0) throw new Error('The signing key set is empty after its first write.');
  return winner;
}

const imported = new Map<string, Promise<CryptoKey | Uint8Array>>();

/** The key that signs now, imported for jose (once per key and container). */
export async function signingKey(now = nowSeconds()) {
  const key = activeKey(await keySet(now), now);
  if (!key) throw new Error('No signing key is active yet: run `npx idm keys rotate` (docs/operations.md).');
  let handle = imported.get(key.kid);
  if (!handle) {
    handle = importJWK(key.privateJwk, key.alg);
    imported.set(key.kid, handle);
  }
  return { kid: key.kid, alg: key.alg, key: await handle };
}

/** GET /.well-known/jwks.json's body (RFC 7517 §5). */
export async function jwks(now = nowSeconds()): Promise<{ keys: JWK[] }> {
  const set = await keySet(now);
  return { keys: publishedKeys(set, now, longestSignedLifetime()).map(publicJwk) };
}

/** How a key stands at `now`, for `npx idm keys list` and `rotate`. */
export function describeKeys(set: KeySet, now: number, lifetime: number) {
  const active = activeKey(set, now);
  const published = new Set(publishedKeys(set, now, lifetime).map((k) => k.kid));
  const iso = (t: number) => new Date(t * 1000).toISOString();
  return [...set.keys].sort(byActivation).map((k) => {
    const state =
      k.notBefore > now ? 'next' : k === active ? 'active' : published.has(k.kid) ? 'retiring' : 'retired';
    return { kid: k.kid, alg: k.alg, state, published: iso(k.createdAt), signsFrom: iso(k.notBefore) };
  });
}

/**
 * `npx idm keys rotate`: a new key, published now and signing after PUBLISH_LEAD (at once when
 * there is none yet); the one it replaces is dropped by a later rotation once no live token can
 * carry its signature.
 */
export async function rotateKeys(alg: SigningAlg, now = nowSeconds()) {
  const set = storedSet(await readKeySetDocument());
  const lifetime = longestSignedLifetime();
  const next = withNewKey(set, await generateSigningKey(alg, now), now, lifetime);
  await writeKeySetDocument(JSON.stringify(next));
  return describeKeys(next, now, lifetime);
}

/** `npx idm keys list`. */
export async function listKeys(now = nowSeconds()) {
  return describeKeys(storedSet(await readKeySetDocument()), now, longestSignedLifetime());
}
