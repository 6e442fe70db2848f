import bcrypt from 'bcryptjs';
import { describe, expect, it } from 'vitest';
import { isLegacyHash, keyrockHash, matchPassword } from '../../../../shared/domain/passwords.js';

/*
 * Vectors computed outside Node (Python's hmac module): HMAC-SHA1 keyed with the salt, or with
 * Keyrock's password_encryption.key when the salt is empty, in hex.
 */
const SALTED = keyrockHash('9f2b1c3d4e5f6a7b', 'd8e2ecc018660ac92ed9a6fcb8234ca5a12fec2c');
const UNSALTED = keyrockHash('', '66b481e71c998473a984353db664b1a68f8eaab8');

describe('password hashes moved from Keyrock', () => {
  it('accepts the right password under the user salt and asks for an upgrade', async () => {
    expect(await matchPassword('correct horse battery', SALTED, 'nodejs_idm')).toEqual({
      ok: true,
      upgrade: true,
    });
  });

  it('refuses a wrong password, and one that differs only in case', async () => {
    expect(await matchPassword('correct horse batter', SALTED, 'nodejs_idm')).toEqual({
      ok: false,
      upgrade: false,
    });
    expect(await matchPassword('Correct horse battery', SALTED, 'nodejs_idm')).toEqual({
      ok: false,
      upgrade: false,
    });
  });

  it('keys a hash without salt with the deployment key, and only that key', async () => {
    expect((await matchPassword('1234', UNSALTED, 'nodejs_idm')).ok).toBe(true);
    expect((await matchPassword('1234', UNSALTED, 'another-key')).ok).toBe(false);
    const other = keyrockHash('', '738c4c72fd903a34bdc2da1e94a8aba894600816');
    expect((await matchPassword('1234', other, 'another-key')).ok).toBe(true);
  });

  it('stores the digest in lower case and refuses what is not 40 hex digits or has a "$" in the salt', () => {
    expect(keyrockHash('s', 'D8E2ECC018660AC92ED9A6FCB8234CA5A12FEC2C')).toBe(
      'keyrock-hmac-sha1$s$d8e2ecc018660ac92ed9a6fcb8234ca5a12fec2c',
    );
    expect(() => keyrockHash('s', 'abc')).toThrow(TypeError);
    expect(() => keyrockHash('a$b', 'd8e2ecc018660ac92ed9a6fcb8234ca5a12fec2c')).toThrow(TypeError);
  });

  it('treats a damaged legacy hash as no match rather than an error', async () => {
    expect(await matchPassword('1234', 'keyrock-hmac-sha1$s$zz', 'k')).toEqual({ ok: false, upgrade: false });
  });

  it('compares bcrypt hashes as before, never asking for an upgrade', async () => {
    const hash = await bcrypt.hash('correct horse battery', 4);
    expect(isLegacyHash(hash)).toBe(false);
    expect(isLegacyHash(SALTED)).toBe(true);
    expect(await matchPassword('correct horse battery', hash, 'k')).toEqual({ ok: true, upgrade: false });
    expect(await matchPassword('wrong', hash, 'k')).toEqual({ ok: false, upgrade: false });
  });
});
