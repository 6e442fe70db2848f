import { randomUUID } from 'node:crypto';
import { rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Secret, TOTP } from 'otpauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { userIdOfHandle } from '../../../../shared/domain/passkeys.js';
import { newTotpSecret, openSecret, sealSecret, stepOf } from '../../../../shared/domain/totp.js';
import {
  isTotpCode,
  newRecoveryCodes,
  normalizeRecoveryCode,
  recoveryDigest,
} from '../../../../shared/domain/two-factor.js';

const keyFile = join(tmpdir(), `gatehouse-unit-totp-${randomUUID()}`);
beforeAll(() => {
  process.env.IDM_TABLE_NAME = 'unit';
  process.env.IDM_AT_REST_KEY_FILE = keyFile;
});
afterAll(() => rmSync(keyFile, { force: true }));

describe('TOTP secrets at rest', () => {
  it('seals a secret so that only the same user id opens it, with a fresh IV each time', async () => {
    const secret = newTotpSecret();
    const a = await sealSecret(7, secret);
    const b = await sealSecret(7, secret);
    expect(a).toMatch(/^v1\.[\w-]{16}\.[\w-]+$/);
    expect(a).not.toBe(b);
    expect(a).not.toContain(secret);
    expect(await openSecret(7, a)).toBe(secret);
    // The user id is authenticated data: a ciphertext moved to another user does not open.
    await expect(openSecret(8, a)).rejects.toThrow();
    // One bit flipped in the ciphertext: GCM's tag refuses it.
    const [version, iv, body] = a.split('.');
    const bytes = Buffer.from(body!, 'base64url');
    bytes[0]! ^= 1;
    await expect(openSecret(7, `${version}.${iv}.${bytes.toString('base64url')}`)).rejects.toThrow();
    // The local key is a file only its owner may read.
    expect(statSync(keyFile).mode & 0o777).toBe(0o600);
  });
});

describe('TOTP codes (RFC 6238)', () => {
  it('accepts the current step and one either side, and names the step', () => {
    const secret = newTotpSecret();
    const totp = new TOTP({ secret: Secret.fromBase32(secret) });
    const now = 1_800_000_000_000;
    const step = Math.floor(now / 30_000);
    expect(stepOf(secret, totp.generate({ timestamp: now }), now)).toBe(step);
    expect(stepOf(secret, totp.generate({ timestamp: now + 30_000 }), now)).toBe(step + 1);
    expect(stepOf(secret, totp.generate({ timestamp: now - 30_000 }), now)).toBe(step - 1);
    expect(stepOf(secret, totp.generate({ timestamp: now + 60_000 }), now)).toBeUndefined();
  });

  it("matches RFC 6238 Appendix B's SHA-1 vector (truncated to six digits)", () => {
    const secret = Secret.fromUTF8('12345678901234567890').base32;
    // T = 59 s: 94287082 in eight digits.
    expect(stepOf(secret, '287082', 59_000)).toBe(1);
  });

  it('tells a TOTP code from a recovery code', () => {
    expect(isTotpCode('123456')).toBe(true);
    expect(isTotpCode('123 456')).toBe(true);
    expect(isTotpCode('12345')).toBe(false);
    expect(isTotpCode('abcd-efgh-jkmn-pqrs')).toBe(false);
  });
});

describe('recovery codes', () => {
  it('makes ten distinct 80-bit codes and digests that ignore case, spaces and dashes', () => {
    const { codes, digests } = newRecoveryCodes();
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);
    for (const code of codes) expect(code).toMatch(/^[0-9a-hjkmnp-tv-z]{4}(-[0-9a-hjkmnp-tv-z]{4}){3}$/);
    expect(digests[0]).toBe(recoveryDigest(codes[0]!.toUpperCase().replaceAll('-', ' ')));
    expect(digests[0]).toMatch(/^[0-9a-f]{64}$/);
    expect(normalizeRecoveryCode(' AB-cd ')).toBe('abcd');
  });
});

describe('passkey user handles', () => {
  it('reads back the user id a handle carries, and nothing else', () => {
    expect(userIdOfHandle(Buffer.from('42').toString('base64url'))).toBe(42);
    expect(userIdOfHandle(Buffer.from('042').toString('base64url'))).toBeUndefined();
    expect(userIdOfHandle(Buffer.from('x1').toString('base64url'))).toBeUndefined();
    expect(userIdOfHandle(undefined)).toBeUndefined();
  });
});
