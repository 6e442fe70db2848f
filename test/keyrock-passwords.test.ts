import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { keyrockHash } from '../shared/domain/passwords.js';
import { createUser, getLogin, type User } from '../shared/store/users.js';
import { basic, newApp, newUser, postForm, type Registered } from './support/oauth.js';
import { startService, type TestService } from './support/service.js';

/**
 * Users moved from Keyrock keep their passwords: their login carries Keyrock's HMAC-SHA1 hash
 * (as `idm import keyrock` writes it), every sign-in path accepts the password, and the first
 * success replaces the hash with bcrypt. Vectors computed outside Node (Python's hmac).
 */
const PASSWORD = 'correct horse battery';
const SALTED = keyrockHash('9f2b1c3d4e5f6a7b', 'd8e2ecc018660ac92ed9a6fcb8234ca5a12fec2c');
// The same password under Keyrock's default key, for a user stored without a salt.
const UNSALTED_1234 = keyrockHash('', '66b481e71c998473a984353db664b1a68f8eaab8');

let service: TestService;
let app: Registered;
let seq = 0;

async function movedUser(passwordHash: string): Promise<User> {
  seq++;
  return createUser(service.db, {
    email: `moved${seq}-${Date.now()}@example.com`,
    nickName: `moved-${seq}-${Date.now()}`,
    displayName: `Moved ${seq}`,
    passwordHash,
  });
}

const passwordGrant = (email: string, password: string) =>
  postForm(
    `${service.url}/oauth2/token`,
    { grant_type: 'password', username: email, password },
    { authorization: basic(app.app.clientId, app.secret) },
  );

const apiToken = (name: string, password: string) =>
  fetch(`${service.url}/v1/auth/tokens`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ name, password }),
  });

beforeAll(async () => {
  service = await startService();
  const owner = await newUser(service.db, 'owner');
  app = await newApp(service.db, owner.id, { grantTypes: ['password', 'refresh_token'] });
});

afterAll(() => service.close());

describe('a password hash moved from Keyrock', () => {
  it('signs in through the password grant, and the hash becomes bcrypt in the same sign-in', async () => {
    const user = await movedUser(SALTED);
    const res = await passwordGrant(user.email, PASSWORD);
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ token_type: 'bearer', access_token: expect.any(String) });
    const login = await getLogin(service.db, user.email);
    expect(login?.passwordHash).toMatch(/^\$2[aby]\$/);
    // The new hash holds the same password, and only that one.
    expect((await passwordGrant(user.email, PASSWORD)).status).toBe(200);
    expect((await passwordGrant(user.email, 'not the password')).status).toBe(400);
  });

  it('signs in through Keyrock’s API token, with the deployment key when the user had no salt', async () => {
    const user = await movedUser(UNSALTED_1234);
    const res = await apiToken(user.email, '1234');
    expect(res.status).toBe(201);
    expect(res.headers.get('x-subject-token')).toBeTruthy();
    expect((await getLogin(service.db, user.email))?.passwordHash).toMatch(/^\$2[aby]\$/);
  });

  it('refuses a wrong password, keeps the Keyrock hash, and counts the failure toward the lockout', async () => {
    const user = await movedUser(SALTED);
    for (let i = 0; i < 5; i++) {
      const res = await passwordGrant(user.email, `wrong ${i}`);
      expect(res.status).toBe(400);
      expect((await res.json()).error).toBe('invalid_grant');
    }
    expect((await getLogin(service.db, user.email))?.passwordHash).toBe(SALTED);
    // Locked now: even the right password is refused without being checked.
    const locked = await passwordGrant(user.email, PASSWORD);
    expect(locked.status).toBe(400);
    expect((await getLogin(service.db, user.email))?.passwordHash).toBe(SALTED);
  });

  it('signs in to the portal', async () => {
    const user = await movedUser(SALTED);
    const res = await fetch(`${service.url}/api/session`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: user.email, password: PASSWORD }),
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('set-cookie')).toMatch(/HttpOnly/i);
    expect((await getLogin(service.db, user.email))?.passwordHash).toMatch(/^\$2[aby]\$/);
  });
});
