import { randomUUID } from 'node:crypto';
import { rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  jwtSecretFor,
  newJwtSecret,
  openJwtSecret,
  sealJwtSecret,
} from '../../../../shared/domain/jwt-secrets.js';
import { idsOf, isKeyrockJwt } from '../../../../shared/domain/keyrock-jwt.js';
import { keyrockTokenTypes } from '../../../../shared/domain/validate.js';
import { AppError } from '../../../../shared/errors.js';
import { tokenTypeOf } from '../../../../shared/oauth/tokens.js';
import type { Client } from '../../../../shared/store/applications.js';

const keyFile = join(tmpdir(), `gatehouse-unit-jwt-secret-${randomUUID()}`);
beforeAll(() => {
  process.env.IDM_TABLE_NAME = 'unit';
  process.env.IDM_AT_REST_KEY_FILE = keyFile;
});
afterAll(() => rmSync(keyFile, { force: true }));

const client = (tokenTypes?: Client['tokenTypes']): Client => ({
  clientId: 'c1',
  appId: 1,
  name: 'App',
  secretHash: 'x',
  callbackUrl: 'http://localhost/cb',
  grantTypes: ['password'],
  tokenTypes,
});

function scopeError(fn: () => unknown): string {
  try {
    fn();
  } catch (error) {
    if (error instanceof AppError) return error.code;
    throw error;
  }
  return 'accepted';
}

describe('Keyrock token types asked for by scope (validateScope)', () => {
  it('is bearer without jwt or permanent in the scope, whatever the application allows', () => {
    expect(tokenTypeOf(client(), undefined)).toBe('bearer');
    expect(tokenTypeOf(client(), 'openid profile')).toBe('bearer');
    expect(tokenTypeOf(client(['jwt', 'permanent']), 'bearer')).toBe('bearer');
  });

  it('gives jwt and permanent only to applications that allow them', () => {
    expect(tokenTypeOf(client(['jwt']), 'jwt')).toBe('jwt');
    expect(tokenTypeOf(client(['permanent']), 'orders permanent')).toBe('permanent');
    expect(scopeError(() => tokenTypeOf(client(), 'jwt'))).toBe('invalid_scope');
    expect(scopeError(() => tokenTypeOf(client(['jwt']), 'permanent'))).toBe('invalid_scope');
    expect(scopeError(() => tokenTypeOf(client(['permanent']), 'jwt'))).toBe('invalid_scope');
  });

  it('refuses bearer with jwt (Keyrock), and jwt with permanent (an irrevocable token)', () => {
    const both = client(['jwt', 'permanent']);
    expect(scopeError(() => tokenTypeOf(both, 'bearer jwt'))).toBe('invalid_scope');
    expect(scopeError(() => tokenTypeOf(both, 'jwt permanent'))).toBe('invalid_scope');
  });
});

describe('token types in application input', () => {
  it('keeps jwt and permanent in a fixed order, drops bearer, refuses anything else', () => {
    expect(keyrockTokenTypes(undefined)).toEqual([]);
    expect(keyrockTokenTypes(['permanent', 'bearer', 'jwt'])).toEqual(['jwt', 'permanent']);
    expect(() => keyrockTokenTypes(['magic'])).toThrow(/tokenTypes must be a list of jwt and permanent/);
    expect(() => keyrockTokenTypes('jwt')).toThrow(AppError);
  });
});

describe('jwt secrets at rest', () => {
  it('makes 256-bit hex secrets and seals them so only the same client id opens them', async () => {
    const secret = newJwtSecret();
    expect(secret).toMatch(/^[0-9a-f]{64}$/);
    const sealed = await sealJwtSecret('app-a', secret);
    expect(sealed).toMatch(/^v1\.[\w-]{16}\.[\w-]+$/);
    expect(sealed).not.toContain(secret);
    expect(await sealJwtSecret('app-a', secret)).not.toBe(sealed);
    expect(await openJwtSecret('app-a', sealed)).toBe(secret);
    await expect(openJwtSecret('app-b', sealed)).rejects.toThrow();
  });

  it('keeps the secret while jwt stays, makes one when it is added, drops it without jwt', async () => {
    const current = await sealJwtSecret('app-c', 'kept');
    expect(await jwtSecretFor('app-c', ['jwt', 'permanent'], current)).toBe(current);
    const fresh = await jwtSecretFor('app-c', ['jwt'], undefined);
    expect(await openJwtSecret('app-c', fresh!)).toMatch(/^[0-9a-f]{64}$/);
    expect(await jwtSecretFor('app-c', ['permanent'], current)).toBeUndefined();
  });
});

describe('recognising a Keyrock jwt token', () => {
  it('takes HS256 JWTs only: not RFC 9068 ones (RS256/ES256), not opaque values', async () => {
    const hs = await new SignJWT({ a: 1 })
      .setProtectedHeader({ alg: 'HS256' })
      .sign(new TextEncoder().encode('a 16-char secret'));
    expect(isKeyrockJwt(hs)).toBe(true);
    const rs = `${Buffer.from('{"alg":"RS256"}').toString('base64url')}.e30.sig`;
    expect(isKeyrockJwt(rs)).toBe(false);
    expect(isKeyrockJwt('1.2.abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQ')).toBe(false);
  });

  it('reads the ids claim only when well-formed', () => {
    expect(idsOf({ app: 3, user: 5, orgs: [1, 2] })).toEqual({ app: 3, user: 5, orgs: [1, 2] });
    expect(idsOf({ app: 3, iot: 'iot_sensor_1' })).toEqual({ app: 3, iot: 'iot_sensor_1' });
    for (const bad of [undefined, null, {}, { app: '3' }, { app: 3, user: -1 }, { app: 3, orgs: [0] }]) {
      expect(idsOf(bad)).toBeUndefined();
    }
    expect(idsOf({ app: 3, orgs: Array.from({ length: 101 }, (_, i) => i + 1) })).toBeUndefined();
  });
});
