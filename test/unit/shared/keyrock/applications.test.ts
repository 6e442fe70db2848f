import { describe, expect, it } from 'vitest';
import {
  applicationBody,
  applicationChangesBody,
  newApplicationBody,
  newPermissionBody,
  newRoleBody,
  organizationRoleParam,
  permissionBody,
  permissionChangesBody,
  permissionIdParam,
  roleBody,
  roleChangesBody,
  valuesUpdated,
} from '../../../../shared/keyrock/applications.js';
import type { Application } from '../../../../shared/store/applications.js';
import type { Permission } from '../../../../shared/store/roles.js';
import { thrown } from '../../support/errors.js';

/** `fn` throws an AppError of this kind, with a message matching `message` when given. */
function expectAppError(fn: () => unknown, kind: string, message?: RegExp) {
  const error = thrown(fn);
  expect(error.kind).toBe(kind);
  if (message) expect(error.message).toMatch(message);
}

const JSON_TYPE = 'application/json';
const body = (value: unknown) => JSON.stringify(value);

const app: Application = {
  id: 7,
  name: 'Shop',
  description: 'A shop',
  url: 'https://shop.example',
  callbackUrl: 'https://shop.example/cb',
  clientId: '0b7e5f6a-2f59-4a8e-9d5c-1f1f1f1f1f1f',
  grantTypes: ['authorization_code', 'refresh_token'],
  accessTokenFormat: 'jwt',
  postLogoutRedirectUris: ['https://shop.example/bye'],
  tokenTypes: ['permanent'],
  ownerActorId: 3,
  createdAt: '2024-01-01T00:00:00.000Z',
};

describe('Keyrock application shapes', () => {
  it('shows the client id as id, the grants’ response types, Keyrock’s token types with bearer last', () => {
    // The RFC 9068 format (accessTokenFormat jwt) is not Keyrock's `jwt` type and is not shown here.
    expect(applicationBody(app)).toEqual({
      id: app.clientId,
      name: 'Shop',
      description: 'A shop',
      image: 'default',
      url: 'https://shop.example',
      redirect_uri: 'https://shop.example/cb',
      redirect_sign_out_uri: 'https://shop.example/bye',
      grant_type: ['authorization_code', 'refresh_token'],
      response_type: ['code'],
      token_types: ['permanent', 'bearer'],
      jwt_secret: null,
      client_type: null,
      scope: null,
    });
    expect(applicationBody({ ...app, tokenTypes: undefined }, 'the-secret')).toMatchObject({
      token_types: ['bearer'],
      jwt_secret: 'the-secret',
    });
  });

  it('reports only what changed, or Keyrock’s no-change message', () => {
    expect(valuesUpdated('role', { name: 'a', x: [1] }, { name: 'b', x: [1] })).toEqual({
      values_updated: { name: 'b' },
    });
    expect(valuesUpdated('role', { name: 'a' }, { name: 'a' })).toEqual({
      message: "Request don't change the role parameters",
      code: 200,
      title: 'OK',
    });
  });

  it('parses a new application: Keyrock’s grant names kept in Gatehouse’s set, hybrid dropped', () => {
    const fields = newApplicationBody(
      JSON_TYPE,
      body({
        application: {
          name: ' Shop ',
          redirect_uri: 'http://localhost/cb',
          grant_type: ['implicit', 'hybrid', 'password'],
          token_types: ['permanent'],
          redirect_sign_out_uri: 'http://localhost/bye',
        },
      }),
    );
    expect(fields).toEqual({
      name: 'Shop',
      description: '',
      url: '',
      callbackUrl: 'http://localhost/cb',
      grantTypes: ['password', 'implicit'],
      accessTokenFormat: 'opaque',
      postLogoutRedirectUris: ['http://localhost/bye'],
      tokenTypes: ['permanent'],
    });
  });

  it('refuses a new application without name or redirect_uri, or with bad lists, in Keyrock’s words', () => {
    const parse = (application: unknown) => () => newApplicationBody(JSON_TYPE, body({ application }));
    expectAppError(parse({ redirect_uri: 'http://x/cb' }), 'validation', /Missing parameter name/);
    expectAppError(parse({ name: 'x' }), 'validation', /Missing parameter redirect_uri/);
    expectAppError(
      parse({ name: 'x', redirect_uri: 'http://x/cb', grant_type: 'password' }),
      'validation',
      /Invalid Grant Type/,
    );
    for (const tokenTypes of [['x'], ['bearer'], 'jwt']) {
      expectAppError(
        parse({ name: 'x', redirect_uri: 'http://x/cb', token_types: tokenTypes }),
        'validation',
        /Invalid token type in body request/,
      );
    }
    expectAppError(parse({ name: 'x', redirect_uri: 'ftp://x/cb' }), 'validation');
    expectAppError(parse({ name: 'x', redirect_uri: 'http://x/cb#f' }), 'validation');
    expectAppError(
      () => newApplicationBody(JSON_TYPE, body({})),
      'validation',
      /Missing parameter application/,
    );
    expectAppError(() => newApplicationBody('text/plain', '{}'), 'validation', /Content-Type/);
  });

  it('applies a change over the current application, keeping what is not given', () => {
    const next = applicationChangesBody(
      JSON_TYPE,
      body({ application: { name: 'New', redirect_uri: 'relative cb' } }),
      app,
    );
    expect(next).toMatchObject({
      name: 'New',
      callbackUrl: 'relative cb',
      url: app.url,
      accessTokenFormat: 'jwt',
      tokenTypes: ['permanent'],
    });
    expect(
      applicationChangesBody(JSON_TYPE, body({ application: { token_types: ['jwt'] } }), app),
    ).toMatchObject({ tokenTypes: ['jwt'], accessTokenFormat: 'jwt' });
    expectAppError(
      () => applicationChangesBody(JSON_TYPE, body({ application: { secret: 's' } }), app),
      'validation',
      /Cannot set id, secret or response_type/,
    );
  });
});

describe('Keyrock role and permission shapes', () => {
  it('names built-in roles as Keyrock’s internal ones and others by decimal id', () => {
    expect(roleBody({ id: 3, appId: 7, name: 'Provider', builtIn: 'provider' }, 'c')).toEqual({
      id: 'provider',
      name: 'Provider',
      is_internal: true,
      oauth_client_id: 'idm_admin_app',
    });
    expect(roleBody({ id: 9, appId: 7, name: 'Reader' }, 'c')).toEqual({
      id: '9',
      name: 'Reader',
      is_internal: false,
      oauth_client_id: 'c',
    });
    expect(newRoleBody(JSON_TYPE, body({ role: { name: 'R' } }))).toEqual({ name: 'R' });
    expectAppError(() => newRoleBody(JSON_TYPE, body({ role: { name: '' } })), 'validation');
    expectAppError(
      () => roleChangesBody(JSON_TYPE, body({ role: { id: 'x' } })),
      'validation',
      /Cannot set id/,
    );
  });

  it('tells Keyrock’s internal permission ids from the application’s own (p<id>)', () => {
    expect(permissionIdParam('3')).toEqual({ internal: '3' });
    expect(permissionIdParam('p12')).toEqual({ id: 12 });
    expect(permissionIdParam('12')).toEqual({ id: 0 });
    expect(permissionIdParam('7')).toEqual({ id: 0 });
  });

  it('parses a permission with Keyrock’s header rules and checks a pattern resource', () => {
    const parse = (permission: unknown) => newPermissionBody(JSON_TYPE, body({ permission }));
    expect(
      parse({
        name: 'n',
        action: 'get',
        resource: 'login',
        use_authorization_service_header: true,
        authorization_service_header: 'svc',
      }),
    ).toEqual({
      name: 'n',
      description: '',
      verb: 'GET',
      path: 'login',
      isRegex: undefined,
      serviceHeader: 'svc',
      useServiceHeader: true,
    });
    expect(parse({ name: 'n', action: 'GET', resource: '^/a/.*$', is_regex: true })).toMatchObject({
      isRegex: true,
    });
    expectAppError(
      () => parse({ name: 'n', action: 'GET', resource: '(a+)+', is_regex: true }),
      'validation',
      /regular expression/,
    );
    expectAppError(
      () => parse({ name: 'n', action: 'GET', resource: 'x', authorization_service_header: 'h' }),
      'validation',
    );
    expectAppError(
      () => parse({ name: 'n', action: 'GET', resource: 'x', use_authorization_service_header: true }),
      'validation',
    );
    expectAppError(() => parse({ name: 'n', xml: '<x/>' }), 'validation', /XACML/);
    expectAppError(() => parse({ name: 'n', action: 'GET' }), 'validation', /Set action and resource/);
  });

  it('changes a permission: action and resource together, the header kept unless changed', () => {
    const current: Permission = {
      id: 4,
      appId: 7,
      name: 'p',
      description: '',
      verb: 'GET',
      path: 'login',
      serviceHeader: 'svc',
      useServiceHeader: true,
    };
    const change = (permission: unknown) => permissionChangesBody(JSON_TYPE, body({ permission }), current);
    expect(change({ action: 'POST' })).toMatchObject({ verb: 'GET', path: 'login' });
    expect(change({ action: 'POST', resource: 'r', use_authorization_service_header: false })).toMatchObject({
      verb: 'POST',
      path: 'r',
      serviceHeader: 'svc',
      useServiceHeader: undefined,
    });
    expectAppError(() => change({ resource: '(a|a)*', action: 'GET', is_regex: true }), 'validation');
    expect(permissionBody({ ...current, isRegex: true }, 'c')).toMatchObject({
      id: 'p4',
      is_regex: true,
      authorization_service_header: 'svc',
      use_authorization_service_header: true,
    });
  });

  it('gives roles to an organization’s members or its owners (organization_roles/member|owner)', () => {
    expect(organizationRoleParam('member')).toBe('member');
    expect(organizationRoleParam('owner')).toBe('owner');
    expectAppError(() => organizationRoleParam('boss'), 'not_found');
    expectAppError(() => organizationRoleParam('Owner'), 'not_found');
  });
});
