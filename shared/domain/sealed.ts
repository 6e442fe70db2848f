import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';
import { readAtRestKeyMaterial } from '../store/at-rest-key.js';

/**
 * Secrets Gatehouse must read back (an authenticator app's shared secret, a Keyrock `jwt_secret`)
 * are kept as AES-256-GCM ciphertext, `v1.<iv>.<ciphertext and tag>` in base64url. Each purpose
 * has its own key, derived with HKDF-SHA256 (RFC 5869) from the deployment's at-rest key material
 * under its own `info` label, so a key for one purpose opens nothing of another; the owner's id is
 * the authenticated data, so a ciphertext copied onto another record does not open. The `v1.`
 * prefix leaves room for a second key on rotation.
 */
export interface SealedBox<Id> {
  seal(owner: Id, text: string): Promise<string>;
  open(owner: Id, sealed: string): Promise<string>;
  /** Starts reading the key material (once per container) so it overlaps the caller's table read. */
  warm(): void;
}

const TAG = 16;

export function sealedBox<Id extends string | number>(label: string, aadPrefix: string): SealedBox<Id> {
  let aesKey: Promise<Buffer> | undefined;
  const key = (): Promise<Buffer> => {
    aesKey ??= readAtRestKeyMaterial().then((material) =>
      Buffer.from(hkdfSync('sha256', material, '', label, 32)),
    );
    // A failed read (a Secrets Manager hiccup) is tried again by the next caller, not cached.
    aesKey.catch(() => {
      aesKey = undefined;
    });
    return aesKey;
  };
  const aad = (owner: Id) => Buffer.from(`${aadPrefix}:${owner}`);
  return {
    async seal(owner, text) {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', await key(), iv).setAAD(aad(owner));
      const sealed = Buffer.concat([cipher.update(text, 'utf8'), cipher.final(), cipher.getAuthTag()]);
      return `v1.${iv.toString('base64url')}.${sealed.toString('base64url')}`;
    },
    async open(owner, sealed) {
      const [version, iv, body] = sealed.split('.');
      if (version !== 'v1' || !iv || !body) throw new Error('Unknown sealed secret format.');
      const bytes = Buffer.from(body, 'base64url');
      const decipher = createDecipheriv('aes-256-gcm', await key(), Buffer.from(iv, 'base64url')).setAAD(
        aad(owner),
      );
      decipher.setAuthTag(bytes.subarray(bytes.length - TAG));
      return Buffer.concat([
        decipher.update(bytes.subarray(0, bytes.length - TAG)),
        decipher.final(),
      ]).toString('utf8');
    },
    warm() {
      key().catch(() => undefined);
    },
  };
}
