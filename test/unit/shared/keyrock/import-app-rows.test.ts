import { describe, expect, it } from 'vitest';
import {
  agentFromRow,
  applicationFromRow,
  assignmentFromRow,
  permissionFromRow,
  roleFromRow,
  rolePermissionFromRow,
  selectApp,
} from '../../../../shared/keyrock/import-app-rows.js';

/** Rows as mysql2 returns Keyrock's tables (TINYINT as numbers, NULL as null). */
const client = {
  id: 'a9a00000-0000-4000-8000-000000000001',
  name: 'Shop',
  description: 'd',
  secret: 'b6b6b6b6-0000-4000-8000-000000000001',
  url: 'http://shop.example',
  redirect_uri: 'http://shop.example/cb',
  image: 'default',
  grant_type: 'authorization_code,refresh_token',
  token_types: 'bearer',
  jwt_secret: null,
  redirect_sign_out_uri: null,
};

const permission = {
  id: 'p1',
  name: 'Read',
  description: null,
  is_internal: 0,
  action: 'GET',
  resource: '/things',
  xml: null,
  oauth_client_id: client.id,
  is_regex: 0,
  authorization_service_header: null,
  use_authorization_service_header: 0,
  regex_entity_ids: null,
  regex_attributes: null,
  regex_types: null,
};

describe('Keyrock application rows', () => {
  it('reads only the optional columns a database has', () => {
    expect(selectApp('oauth_client', (c) => c === 'oauth_client.token_types')).toBe(
      'SELECT `id`, `name`, `description`, `secret`, `url`, `redirect_uri`, `image`, `grant_type`, `token_types` FROM `oauth_client` ORDER BY `id`',
    );
  });

  it('keeps the client id and secret, and the fields Gatehouse has', () => {
    const mapped = applicationFromRow(client);
    expect(mapped).toMatchObject({
      ok: true,
      value: {
        clientId: client.id,
        clientSecret: client.secret,
        jwtSecret: null,
        image: null,
        notes: [],
        fields: {
          name: 'Shop',
          callbackUrl: 'http://shop.example/cb',
          grantTypes: ['authorization_code', 'refresh_token'],
          accessTokenFormat: 'opaque',
          postLogoutRedirectUris: [],
        },
      },
    });
  });

  it('notes what it leaves out of an application', () => {
    const mapped = applicationFromRow({
      ...client,
      url: 'shop',
      redirect_uri: 'http://a.example/cb,http://b.example/cb',
      grant_type: 'client_credentials,hybrid',
      token_types: 'jwt,permanent,bearer',
      jwt_secret: 's',
      image: 'f00.png',
      name: 'n'.repeat(150),
    });
    if (!mapped.ok) throw new Error(mapped.reason);
    expect(mapped.value.fields).toMatchObject({
      name: 'n'.repeat(100),
      url: '',
      callbackUrl: 'http://a.example/cb',
      grantTypes: ['client_credentials'],
      accessTokenFormat: 'opaque',
      tokenTypes: ['jwt', 'permanent'],
    });
    expect(mapped.value.jwtSecret).toBe('s');
    expect(mapped.value.image).toBe('f00.png');
    expect(mapped.value.notes).toEqual([
      'only the first redirect_uri kept; left out: http://b.example/cb',
      'url left out: not an http(s) URL',
      'grant types left out: hybrid (hybrid flows use the code grant)',
      'name cut to 100 characters',
    ]);
  });

  it('keeps no jwt_secret without the jwt type, and notes a jwt type without one', () => {
    const plain = applicationFromRow({ ...client, token_types: 'permanent,bearer', jwt_secret: 'left' });
    if (!plain.ok) throw new Error(plain.reason);
    expect(plain.value.fields.tokenTypes).toEqual(['permanent']);
    expect(plain.value.jwtSecret).toBeNull();
    const bare = applicationFromRow({ ...client, token_types: 'jwt', jwt_secret: null });
    if (!bare.ok) throw new Error(bare.reason);
    expect(bare.value.notes).toEqual(['no jwt_secret in Keyrock: a new one is made']);
  });

  it('skips Keyrock’s own application, one without a secret and one with no known grant', () => {
    expect(applicationFromRow({ ...client, id: 'idm_admin_app' })).toMatchObject({ ok: false });
    expect(applicationFromRow({ ...client, secret: null })).toEqual({
      ok: false,
      reason: 'no client secret',
    });
    expect(applicationFromRow({ ...client, grant_type: 'hybrid' })).toEqual({
      ok: false,
      reason: 'Invalid Grant Type',
    });
  });

  it('maps permissions with patterns and service headers, and refuses what it cannot decide', () => {
    expect(permissionFromRow({ ...permission, is_regex: 1, resource: '^/things/[0-9]+$' })).toMatchObject({
      ok: true,
      value: { fields: { verb: 'GET', path: '^/things/[0-9]+$', isRegex: true } },
    });
    expect(
      permissionFromRow({
        ...permission,
        use_authorization_service_header: 1,
        authorization_service_header: 'x',
      }),
    ).toMatchObject({ ok: true, value: { fields: { serviceHeader: 'x', useServiceHeader: true } } });
    // A header Keyrock kept but does not use is no rule.
    expect(permissionFromRow({ ...permission, authorization_service_header: 'x' })).toMatchObject({
      ok: true,
      value: { fields: { serviceHeader: undefined } },
    });
    expect(permissionFromRow({ ...permission, action: null, resource: null, xml: '<Rule/>' })).toMatchObject({
      ok: false,
      reason: expect.stringMatching(/XACML/),
    });
    expect(permissionFromRow({ ...permission, regex_entity_ids: 'urn:.*' })).toMatchObject({
      ok: false,
      reason: expect.stringMatching(/payload/),
    });
    expect(permissionFromRow({ ...permission, is_regex: 1, resource: '(a+)+$' })).toMatchObject({
      ok: false,
    });
    expect(permissionFromRow({ ...permission, id: '2', is_internal: 1 })).toMatchObject({ ok: false });
  });

  it('leaves Keyrock’s internal roles and their permissions to the built-in roles', () => {
    expect(
      roleFromRow({ id: 'provider', name: 'Provider', is_internal: 1, oauth_client_id: 'idm_admin_app' }),
    ).toMatchObject({ ok: false });
    expect(
      roleFromRow({ id: 'r1', name: 'Reader', is_internal: 0, oauth_client_id: client.id }),
    ).toMatchObject({
      ok: true,
      value: { keyrockId: 'r1', name: 'Reader' },
    });
    expect(rolePermissionFromRow({ id: 1, role_id: 'purchaser', permission_id: '5' })).toMatchObject({
      ok: false,
    });
  });

  it('tells a user’s role from an organization’s members’ and owners’', () => {
    const row = { id: 1, oauth_client_id: client.id, role_id: 'r1', role_organization: null };
    expect(assignmentFromRow({ ...row, user_id: 'u1', organization_id: null })).toMatchObject({
      ok: true,
      value: { grantee: { kind: 'user', keyrockId: 'u1' } },
    });
    expect(
      assignmentFromRow({ ...row, user_id: null, organization_id: 'o1', role_organization: 'owner' }),
    ).toMatchObject({ ok: true, value: { grantee: { kind: 'org', keyrockId: 'o1', as: 'owner' } } });
    expect(assignmentFromRow({ ...row, user_id: null, organization_id: null })).toMatchObject({ ok: false });
  });

  it('keeps an agent’s Keyrock password hash with its salt', () => {
    const hex = 'a'.repeat(40);
    expect(
      agentFromRow({
        id: 'pep_proxy_1',
        password: hex,
        salt: '0011223344556677',
        oauth_client_id: client.id,
      }),
    ).toEqual({
      ok: true,
      value: {
        id: 'pep_proxy_1',
        clientId: client.id,
        passwordHash: `keyrock-hmac-sha1$0011223344556677$${hex}`,
      },
    });
    expect(
      agentFromRow({ id: 'pep_proxy_1', password: '', salt: '', oauth_client_id: client.id }),
    ).toMatchObject({
      ok: false,
    });
  });
});
