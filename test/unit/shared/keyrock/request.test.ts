import { describe, expect, it } from 'vitest';
import { AppError } from '../../../../shared/errors.js';
import { newUserBody, tokenRequest, userChangesBody } from '../../../../shared/keyrock/request.js';

const JSON_TYPE = 'application/json; charset=utf-8';

/** The 400 a parser throws, with its message. */
function refused(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).status).toBe(400);
    return (error as AppError).message;
  }
  throw new Error('expected a 400');
}

describe('tokenRequest (POST /v1/auth/tokens)', () => {
  it('reads name and password, a token, or both, from JSON or a form', () => {
    expect(tokenRequest(JSON_TYPE, '{"name":"a@b.co","password":"pw"}')).toEqual({
      name: 'a@b.co',
      password: 'pw',
    });
    expect(tokenRequest('application/json', '{"token":"t"}')).toEqual({ token: 't' });
    expect(tokenRequest('application/json', '{"name":"a","password":"p","token":"t"}')).toEqual({
      name: 'a',
      password: 'p',
      token: 't',
    });
    expect(
      tokenRequest('application/x-www-form-urlencoded', 'grant_type=password&name=a%40b.co&password=p'),
    ).toEqual({
      name: 'a@b.co',
      password: 'p',
    });
  });

  it('ignores a name without a password, and values that are not strings', () => {
    expect(tokenRequest('application/json', '{"name":"a","token":"t"}')).toEqual({ token: 't' });
    expect(refused(() => tokenRequest('application/json', '{"name":"a","password":7}'))).toBe(
      'Expecting to find name and password or token in body request',
    );
  });

  it('refuses bodies that are not JSON objects or forms, with a 400', () => {
    expect(refused(() => tokenRequest('application/json', '{"name":'))).toMatch(/not valid JSON/);
    expect(refused(() => tokenRequest('application/json', '[]'))).toMatch(/JSON object/);
    expect(refused(() => tokenRequest('application/json', ''))).toMatch(/not valid JSON/);
    expect(refused(() => tokenRequest(undefined, '{}'))).toMatch(/Content-Type/);
    expect(refused(() => tokenRequest('text/plain', 'name=a'))).toMatch(/Content-Type/);
    expect(refused(() => tokenRequest('application/json', '{}'))).toMatch(/name and password or token/);
  });
});

describe('newUserBody (POST /v1/users)', () => {
  it('maps Keyrock’s username to the display name and keeps the other fields', () => {
    const body = JSON.stringify({
      user: {
        username: 'Alice',
        email: 'a@b.co',
        password: 'pw',
        description: 'd',
        website: 'https://w',
        admin: true,
      },
    });
    expect(newUserBody(JSON_TYPE, body)).toEqual({
      displayName: 'Alice',
      email: 'a@b.co',
      password: 'pw',
      description: 'd',
      website: 'https://w',
    });
  });

  it('names the missing piece in Keyrock’s words', () => {
    expect(refused(() => newUserBody(JSON_TYPE, '{}'))).toBe('Missing parameter user in body request');
    expect(refused(() => newUserBody(JSON_TYPE, '{"user":"x"}'))).toBe(
      'Missing parameter user in body request',
    );
    for (const missing of ['username', 'password', 'email']) {
      const user: Record<string, string> = { username: 'u', password: 'p', email: 'e@x.co' };
      user[missing] = '';
      expect(refused(() => newUserBody(JSON_TYPE, JSON.stringify({ user })))).toBe(
        `Missing parameter ${missing} in body request or empty ${missing}`,
      );
    }
    expect(refused(() => newUserBody('application/x-www-form-urlencoded', 'user=1'))).toBe(
      'Missing parameter: header Content-Type: application/json',
    );
  });
});

describe('userChangesBody (PATCH /v1/users/:id)', () => {
  it('returns only the fields sent', () => {
    expect(userChangesBody(JSON_TYPE, '{"user":{"username":"n","password":"p"}}')).toEqual({
      displayName: 'n',
      password: 'p',
    });
    expect(userChangesBody(JSON_TYPE, '{"user":{}}')).toEqual({});
  });

  it('refuses an id and empty required fields', () => {
    expect(refused(() => userChangesBody(JSON_TYPE, '{"user":{"id":"2"}}'))).toBe('Cannot set id');
    expect(refused(() => userChangesBody(JSON_TYPE, '{"user":{"email":""}}'))).toBe('Cannot set empty email');
    expect(refused(() => userChangesBody(JSON_TYPE, '{"user":{"username":null}}'))).toBe(
      'Cannot set empty username',
    );
    expect(refused(() => userChangesBody(JSON_TYPE, '{"other":{}}'))).toBe(
      'Missing parameter user in body request',
    );
  });
});
