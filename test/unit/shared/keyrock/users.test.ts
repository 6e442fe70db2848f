import { describe, expect, it } from 'vitest';
import { keyrockError, keyrockTitle } from '../../../../shared/keyrock/errors.js';
import {
  createdUserBody,
  issuedTokenBody,
  serviceInformationBody,
  tokenInfoBody,
  updatedUserBody,
  userBody,
  userListEntry,
} from '../../../../shared/keyrock/users.js';
import { uptime, versionBody } from '../../../../shared/keyrock/version.js';
import type { User } from '../../../../shared/store/users.js';

const user: User = {
  id: 12,
  actorId: 30,
  email: 'alice@test.com',
  nickName: 'alice',
  displayName: 'Alice',
  createdAt: '2024-01-01T00:00:00.000Z',
  admin: true,
  description: '',
  website: 'https://alice.example',
  datePassword: '2024-02-01T00:00:00.000Z',
};

describe('Keyrock user shapes', () => {
  it('reads a user with a string id, username = display name, empty fields as null', () => {
    expect(userBody(user)).toEqual({
      id: '12',
      username: 'Alice',
      email: 'alice@test.com',
      enabled: true,
      admin: true,
      image: 'default',
      gravatar: false,
      date_password: '2024-02-01T00:00:00.000Z',
      description: null,
      website: 'https://alice.example',
    });
  });

  it('lists without admin and image, as Keyrock’s index does', () => {
    const entry = userListEntry(user);
    expect(entry).not.toHaveProperty('admin');
    expect(entry).not.toHaveProperty('image');
    expect(entry).toMatchObject({ id: '12', username: 'Alice', gravatar: false });
  });

  it('falls back to createdAt and false for records written before /v1', () => {
    const old: User = {
      id: 3,
      actorId: 3,
      email: 'o@x.co',
      nickName: 'o',
      displayName: 'O',
      createdAt: 'T0',
    };
    expect(userBody(old)).toMatchObject({
      admin: false,
      date_password: 'T0',
      description: null,
      website: null,
    });
    expect(createdUserBody(old)).toEqual({
      id: '3',
      image: 'default',
      gravatar: false,
      enabled: true,
      admin: false,
      username: 'O',
      email: 'o@x.co',
      date_password: 'T0',
    });
  });

  it('reports what an update changed, never the password, or Keyrock’s “no change” message', () => {
    expect(updatedUserBody(user, ['displayName', 'password', 'description'])).toEqual({
      values_updated: { username: 'Alice', description: null },
    });
    expect(updatedUserBody(user, ['password'])).toEqual({ values_updated: {} });
    // An administrator's switch reads back as Keyrock's boolean `enabled`.
    expect(updatedUserBody({ ...user, enabled: false }, ['enabled'])).toEqual({
      values_updated: { enabled: false },
    });
    expect(userBody({ ...user, enabled: false }).enabled).toBe(false);
    expect(userBody(user).enabled).toBe(true);
    expect(updatedUserBody(user, [])).toEqual({
      message: "Request don't change the user parameters",
      code: 200,
      title: 'OK',
    });
  });
});

describe('Keyrock token and totals shapes', () => {
  const token = { digest: 'd', userId: 12, expiresAt: 1_700_000_000, methods: ['password'] };

  it('issues with methods, ISO expiry and the authorization level', () => {
    expect(issuedTokenBody({ value: 'v', expiresAt: 1_700_000_000, methods: ['password', 'token'] })).toEqual(
      {
        token: { methods: ['password', 'token'], expires_at: '2023-11-14T22:13:20.000Z' },
        idm_authorization_config: { level: 'basic', authzforce: false },
      },
    );
  });

  it('describes a token with its User', () => {
    expect(tokenInfoBody('v', { user, token })).toEqual({
      access_token: 'v',
      expires: '2023-11-14T22:13:20.000Z',
      valid: true,
      User: {
        id: '12',
        username: 'Alice',
        email: 'alice@test.com',
        date_password: '2024-02-01T00:00:00.000Z',
        enabled: true,
        admin: true,
      },
    });
  });

  it('answers the totals in snake_case, as Keyrock’s code does', () => {
    expect(serviceInformationBody({ users: 2, organizations: 1, applications: 4 })).toEqual({
      information: { total_users: 2, total_organizations: 1, total_applications: 4 },
    });
  });
});

describe('Keyrock errors and /version', () => {
  it('titles each status as Keyrock does', () => {
    expect(keyrockError(404, 'User not found')).toEqual({
      error: { message: 'User not found', code: 404, title: 'Not Found' },
    });
    expect([400, 401, 403, 409, 429, 500].map(keyrockTitle)).toEqual([
      'Bad Request',
      'Unauthorized',
      'Forbidden',
      'Conflict',
      'Too Many Requests',
      'Internal error',
    ]);
    expect(keyrockTitle(418)).toBe('Bad Request');
    expect(keyrockTitle(503)).toBe('Internal error');
  });

  it('formats uptime as HH:MM:SS.d with hours modulo a day (Keyrock’s lib/time.js)', () => {
    expect(uptime(0)).toBe('00:00:00.0');
    expect(uptime(3_723_456)).toBe('01:02:03.4');
    expect(uptime(25 * 3_600_000 + 999)).toBe('01:00:00.9');
  });

  it('builds the version document around the base URL', () => {
    const body = versionBody({
      baseUrl: 'https://idm.example',
      uptimeMs: 1000,
      documentationUrl: 'https://d',
    });
    expect(body.keyrock).toMatchObject({ uptime: '00:00:01.0', doc: 'https://d' });
    expect(body.keyrock.api).toEqual({ version: 'v1', link: 'https://idm.example/v1' });
  });
});
