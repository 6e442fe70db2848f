import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setAdministrator } from '../shared/domain/user-admin.js';
import { getClient } from '../shared/store/applications.js';
import { keys } from '../shared/store/keys.js';
import { getItem } from '../shared/store/ops.js';
import { createOrganization, setMember } from '../shared/store/organizations.js';
import { roleCatalogue } from '../shared/store/roles.js';
import { orgRoleSets, rulesFromSummary } from '../shared/store/summaries.js';
import type { User } from '../shared/store/users.js';
import { expectKeyrockError, keyrockClient, PASSWORD } from './support/keyrock.js';
import { startService, type TestService } from './support/service.js';

/**
 * Keyrock's /v1 applications, roles, permissions and role–permission assignments through the
 * local server with plain fetch, with the bodies of Keyrock's own tests
 * (test/templates/api/002-applications.json, 008-roles.json, 009-permissions.json, 010-…).
 */
let service: TestService;
const { call, signIn, register, roleWithPermission } = keyrockClient(() => service);
let admin: User;
let bob: User;
let carol: User;
let adminToken: string;
let bobToken: string;
let carolToken: string;

const APP = {
  application: {
    name: 'Test_application 1',
    description: 'description1',
    redirect_uri: 'http://localhost/login1',
    url: 'http://localhost1',
    grant_type: ['authorization_code', 'implicit', 'password'],
    token_types: ['jwt', 'permanent'],
  },
};

async function createApp(token = bobToken, body: unknown = APP): Promise<string> {
  const res = await call('POST', '/v1/applications', { token, json: body });
  expect(res.status).toBe(201);
  return (res.body.application as { id: string }).id;
}

beforeAll(async () => {
  service = await startService();
  admin = await setAdministrator(service.db, (await register('alice-the-admin@test.com', 'alice')).id, true);
  bob = await register('bob-the-manager@test.com', 'bob');
  carol = await register('carol@test.com', 'carol');
  [adminToken, bobToken, carolToken] = await Promise.all([
    signIn(admin.email),
    signIn(bob.email),
    signIn(carol.email),
  ]);
});
afterAll(() => service.close());

describe('/v1/applications', () => {
  it('creates an application owned by the caller: 201, client id as id, the secret once', async () => {
    const res = await call('POST', '/v1/applications', { token: bobToken, json: APP });
    expect(res.status).toBe(201);
    const app = res.body.application as Record<string, unknown>;
    expect(app).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      secret: expect.any(String),
      name: 'Test_application 1',
      description: 'description1',
      image: 'default',
      url: 'http://localhost1',
      redirect_uri: 'http://localhost/login1',
      redirect_sign_out_uri: null,
      grant_type: ['password', 'authorization_code', 'implicit'],
      response_type: ['code', 'token'],
      // Keyrock's token types, bearer last as Keyrock reads them back; the jwt type's secret
      // (shown to the Provider, test/keyrock-token-types.test.ts).
      token_types: ['jwt', 'permanent', 'bearer'],
      jwt_secret: expect.stringMatching(/^[0-9a-f]{64}$/),
      client_type: null,
      scope: null,
    });
    // The same records the portal and OAuth read: the client, and bob as Provider. Keyrock's jwt
    // type is not the RFC 9068 format, which stays opaque.
    const client = (await getClient(service.db, app.id as string))!;
    expect(client).toMatchObject({
      accessTokenFormat: 'opaque',
      tokenTypes: ['jwt', 'permanent'],
      callbackUrl: 'http://localhost/login1',
    });
    const token = await fetch(`${service.url}/oauth2/token`, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        authorization: `Basic ${Buffer.from(`${app.id}:${app.secret}`).toString('base64')}`,
      },
      body: new URLSearchParams({ grant_type: 'password', username: bob.email, password: PASSWORD }),
    });
    expect(token.status).toBe(200);
    const roles = await call('GET', `/v1/applications/${app.id}/roles`, { token: bobToken });
    expect(roles.body.roles).toEqual([
      { id: 'provider', name: 'Provider' },
      { id: 'purchaser', name: 'Purchaser' },
    ]);
  });

  it('creates with Keyrock’s defaults (every grant, opaque tokens) when only name and redirect_uri are given', async () => {
    const id = await createApp(bobToken, {
      application: { name: 'Minimal', redirect_uri: 'http://localhost/cb' },
    });
    const res = await call('GET', `/v1/applications/${id}`, { token: bobToken });
    expect(res.status).toBe(200);
    expect(res.body.application).toMatchObject({
      id,
      name: 'Minimal',
      description: '',
      url: null,
      token_types: ['bearer'],
      jwt_secret: null,
      grant_type: ['authorization_code', 'implicit', 'password', 'client_credentials', 'refresh_token'],
      urls: {
        roles_url: `/v1/applications/${id}/roles`,
        permissions_url: `/v1/applications/${id}/permissions`,
      },
    });
    expect(res.body.application).not.toHaveProperty('secret');
  });

  it('lists the caller’s applications only', async () => {
    const mine = await createApp();
    const carols = await createApp(carolToken);
    const res = await call('GET', '/v1/applications', { token: bobToken });
    expect(res.status).toBe(200);
    const ids = (res.body.applications as { id: string }[]).map((a) => a.id);
    expect(ids).toContain(mine);
    expect(ids).not.toContain(carols);
  });

  it('answers creation mistakes with Keyrock’s 400, writing nothing', async () => {
    const post = (json: unknown) => call('POST', '/v1/applications', { token: bobToken, json });
    const before = (await call('GET', '/v1/applications', { token: bobToken })).body
      .applications as unknown[];
    expectKeyrockError(await post({}), 400, 'Missing parameter application in body request');
    expectKeyrockError(
      await post({ application: { redirect_uri: 'http://x.test/cb' } }),
      400,
      'Missing parameter name in body request or empty name',
    );
    expectKeyrockError(
      await post({ application: { name: 'x' } }),
      400,
      'Missing parameter redirect_uri in body request',
    );
    const base = { name: 'x', redirect_uri: 'http://x.test/cb' };
    expectKeyrockError(await post({ application: { ...base, grant_type: 'password' } }), 400);
    expectKeyrockError(await post({ application: { ...base, grant_type: ['hybrid'] } }), 400);
    expectKeyrockError(await post({ application: { ...base, token_types: ['bearer'] } }), 400);
    expectKeyrockError(await post({ application: { ...base, redirect_uri: 'javascript:alert(1)' } }), 400);
    expectKeyrockError(await post({ application: { ...base, url: 'not a url' } }), 400);
    expectKeyrockError(await post({ application: { ...base, name: 'n'.repeat(101) } }), 400);
    const notJson = await call('POST', '/v1/applications', { token: bobToken, raw: '{"application":' });
    expectKeyrockError(notJson, 400);
    const text = await call('POST', '/v1/applications', { token: bobToken, raw: 'x', type: 'text/plain' });
    expectKeyrockError(text, 400);
    const after = (await call('GET', '/v1/applications', { token: bobToken })).body.applications as unknown[];
    expect(after.length).toBe(before.length);
    expectKeyrockError(await call('POST', '/v1/applications', { json: APP }), 401);
  });

  it('updates with Keyrock’s values_updated (its own test’s body), and says when nothing changed', async () => {
    const id = await createApp();
    const res = await call('PATCH', `/v1/applications/${id}`, {
      token: bobToken,
      json: {
        application: {
          name: 'new name 3',
          description: 'new description3',
          redirect_uri: 'new redirect uri3',
          token_types: ['permanent'],
          grant_type: ['authorization_code', 'password'],
        },
      },
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      values_updated: {
        name: 'new name 3',
        description: 'new description3',
        redirect_uri: 'new redirect uri3',
        grant_type: ['password', 'authorization_code'],
        response_type: ['code'],
        token_types: ['permanent', 'bearer'],
      },
    });
    expect(await getClient(service.db, id)).toMatchObject({
      name: 'new name 3',
      callbackUrl: 'new redirect uri3',
      accessTokenFormat: 'opaque',
      tokenTypes: ['permanent'],
      jwtSecret: undefined,
      grantTypes: ['password', 'authorization_code'],
    });
    const same = await call('PATCH', `/v1/applications/${id}`, {
      token: bobToken,
      json: { application: { name: 'new name 3' } },
    });
    expect(same.body).toEqual({
      message: "Request don't change the application parameters",
      code: 200,
      title: 'OK',
    });
    expectKeyrockError(
      await call('PATCH', `/v1/applications/${id}`, { token: bobToken, json: { application: { id: 'x' } } }),
      400,
      'Cannot set id, secret or response_type',
    );
    expectKeyrockError(await call('PATCH', `/v1/applications/${id}`, { token: bobToken, json: {} }), 400);
  });

  it('keeps other users out (403, even to read) and lets an administrator in', async () => {
    const id = await createApp();
    expectKeyrockError(await call('GET', `/v1/applications/${id}`, { token: carolToken }), 403);
    const patch = await call('PATCH', `/v1/applications/${id}`, {
      token: carolToken,
      json: { application: { name: 'hacked' } },
    });
    expectKeyrockError(patch, 403);
    expectKeyrockError(await call('DELETE', `/v1/applications/${id}`, { token: carolToken }), 403);
    expect((await getClient(service.db, id))!.name).toBe('Test_application 1');
    expect((await call('GET', `/v1/applications/${id}`, { token: adminToken })).status).toBe(200);
    const byAdmin = await call('PATCH', `/v1/applications/${id}`, {
      token: adminToken,
      json: { application: { description: 'by admin' } },
    });
    expect(byAdmin.body).toEqual({ values_updated: { description: 'by admin' } });
    expectKeyrockError(
      await call('GET', '/v1/applications/00000000-0000-4000-8000-000000000000', { token: bobToken }),
      404,
      'Application not found',
    );
    expectKeyrockError(await call('GET', '/v1/applications/idm_admin_app', { token: adminToken }), 403);
    expectKeyrockError(await call('GET', `/v1/applications/${'x'.repeat(300)}`, { token: bobToken }), 404);
  });

  it('deletes an application with its client: 204, then 404', async () => {
    const id = await createApp();
    const appId = (await getClient(service.db, id))!.appId;
    const res = await call('DELETE', `/v1/applications/${id}`, { token: bobToken });
    expect(res.status).toBe(204);
    expect(await getClient(service.db, id)).toBeUndefined();
    expect(await getItem(service.db, keys.application(appId))).toBeUndefined();
    expectKeyrockError(await call('GET', `/v1/applications/${id}`, { token: bobToken }), 404);
  });
});

describe('/v1/applications/{id}/roles', () => {
  it('creates, reads, renames and deletes a role (Keyrock’s 008 flow), keeping the summary in step', async () => {
    const id = await createApp();
    const appId = (await getClient(service.db, id))!.appId;
    const base = `/v1/applications/${id}/roles`;
    const created = await call('POST', base, { token: bobToken, json: { role: { name: 'Test role 1' } } });
    expect(created.status).toBe(201);
    const role = created.body.role as { id: string };
    expect(role).toEqual({
      id: expect.stringMatching(/^\d+$/),
      name: 'Test role 1',
      is_internal: false,
      oauth_client_id: id,
    });
    const read = await call('GET', `${base}/${role.id}`, { token: bobToken });
    expect(read.body).toEqual({ role });
    const renamed = await call('PATCH', `${base}/${role.id}`, {
      token: bobToken,
      json: { role: { name: 'new name of role 3' } },
    });
    expect(renamed.body).toEqual({ values_updated: { name: 'new name of role 3' } });
    const summary = rulesFromSummary(await getItem(service.db, keys.catalogue(appId)), appId)!;
    expect(summary.roles.map((r) => r.name)).toContain('new name of role 3');
    const same = await call('PATCH', `${base}/${role.id}`, {
      token: bobToken,
      json: { role: { name: 'new name of role 3' } },
    });
    expect(same.body).toEqual({
      message: "Request don't change the role parameters",
      code: 200,
      title: 'OK',
    });
    expect((await call('DELETE', `${base}/${role.id}`, { token: bobToken })).status).toBe(204);
    expectKeyrockError(await call('GET', `${base}/${role.id}`, { token: bobToken }), 404, 'Role not found');
    expect((await roleCatalogue(service.db, appId)).roles.map((r) => r.name)).toEqual([
      'Provider',
      'Purchaser',
    ]);
  });

  it('shows the built-in roles read-only: 403 on every change', async () => {
    const id = await createApp();
    const base = `/v1/applications/${id}/roles`;
    const provider = await call('GET', `${base}/provider`, { token: bobToken });
    expect(provider.body).toEqual({
      role: { id: 'provider', name: 'Provider', is_internal: true, oauth_client_id: 'idm_admin_app' },
    });
    const rename = await call('PATCH', `${base}/purchaser`, {
      token: bobToken,
      json: { role: { name: 'x' } },
    });
    expectKeyrockError(rename, 403, 'Not allowed');
    expectKeyrockError(await call('DELETE', `${base}/provider`, { token: bobToken }), 403);
  });

  it('answers mistakes and strangers with Keyrock’s 400, 404 and 403', async () => {
    const id = await createApp();
    const base = `/v1/applications/${id}/roles`;
    expectKeyrockError(await call('POST', base, { token: bobToken, json: {} }), 400);
    expectKeyrockError(await call('POST', base, { token: bobToken, json: { role: {} } }), 400);
    expectKeyrockError(
      await call('POST', base, { token: bobToken, json: { role: { name: 'r'.repeat(65) } } }),
      400,
    );
    const created = await call('POST', base, { token: bobToken, json: { role: { name: 'R' } } });
    const roleId = (created.body.role as { id: string }).id;
    expectKeyrockError(
      await call('PATCH', `${base}/${roleId}`, { token: bobToken, json: { role: { is_internal: true } } }),
      400,
      'Cannot set id or is_internal',
    );
    expectKeyrockError(await call('GET', `${base}/999999`, { token: bobToken }), 404);
    expectKeyrockError(await call('GET', `${base}/nope`, { token: bobToken }), 404);
    expectKeyrockError(await call('GET', base, { token: carolToken }), 403);
    expectKeyrockError(await call('POST', base, { token: carolToken, json: { role: { name: 'x' } } }), 403);
    expectKeyrockError(await call('DELETE', `${base}/${roleId}`, { token: carolToken }), 403);
    expect((await call('GET', `${base}/${roleId}`, { token: bobToken })).status).toBe(200);
  });
});

describe('/v1/applications/{id}/permissions and role–permission assignments', () => {
  it('runs Keyrock’s 009 bodies: create, refuse XACML and header mistakes, read, update, delete', async () => {
    const id = await createApp();
    const base = `/v1/applications/${id}/permissions`;
    const post = (permission: unknown) => call('POST', base, { token: bobToken, json: { permission } });
    const created = await post({
      name: 'permission 1',
      description: 'permission 1 description',
      action: 'GET',
      resource: 'login',
      authorization_service_header: 'test',
      use_authorization_service_header: true,
    });
    expect(created.status).toBe(201);
    const permission = created.body.permission as { id: string };
    expect(permission).toMatchObject({
      id: expect.stringMatching(/^p\d+$/),
      is_internal: false,
      action: 'GET',
      resource: 'login',
      is_regex: false,
      authorization_service_header: 'test',
      use_authorization_service_header: true,
      oauth_client_id: id,
    });
    const mistakes = [
      { name: 'p2', action: 'GET', resource: 'login', xml: '<xml test 2>' },
      { name: 'p3', action: 'GET', resource: 'login', use_authorization_service_header: true },
      { name: 'p4', action: 'GET', resource: 'login', authorization_service_header: 'test' },
      { name: 'p5', xml: '<xml test 5>', authorization_service_header: 'test' },
      { name: 'p6', xml: '<xml test 6>', use_authorization_service_header: true },
      { name: 'p', action: 'GET' },
      { action: 'GET', resource: 'login' },
      { name: 'p', action: 'FETCH', resource: 'login' },
      { name: 'p', action: 'GET', resource: 'login', is_regex: 'yes' },
      { name: 'p', action: 'GET', resource: 'x', regex_types: '.*' },
    ];
    for (const body of mistakes) expectKeyrockError(await post(body), 400);
    const ok = await post({
      name: 'permission 7',
      action: 'GET',
      resource: 'login',
      use_authorization_service_header: false,
    });
    expect(ok.status).toBe(201);
    expect((await call('GET', `${base}/${permission.id}`, { token: bobToken })).body).toEqual({
      permission: created.body.permission,
    });
    const updated = await call('PATCH', `${base}/${permission.id}`, {
      token: bobToken,
      json: {
        permission: {
          name: 'new name of permission 3',
          description: 'new description of permission 3',
          action: 'POST',
          resource: 'resource',
          use_authorization_service_header: false,
        },
      },
    });
    expect(updated.status).toBe(200);
    expect(updated.body).toEqual({
      values_updated: {
        name: 'new name of permission 3',
        description: 'new description of permission 3',
        action: 'POST',
        resource: 'resource',
        use_authorization_service_header: false,
      },
    });
    const list = await call('GET', base, { token: bobToken });
    const ids = (list.body.permissions as { id: string }[]).map((p) => p.id);
    expect(ids).toEqual(expect.arrayContaining([permission.id, '1', '2', '3', '4', '5', '6']));
    expect((await call('DELETE', `${base}/${permission.id}`, { token: bobToken })).status).toBe(204);
    expectKeyrockError(await call('GET', `${base}/${permission.id}`, { token: bobToken }), 404);
  });

  it('keeps Keyrock’s internal permissions read-only and strangers out', async () => {
    const id = await createApp();
    const base = `/v1/applications/${id}/permissions`;
    const internal = await call('GET', `${base}/3`, { token: bobToken });
    expect(internal.body.permission).toMatchObject({ id: '3', is_internal: true, name: 'Manage roles' });
    expectKeyrockError(
      await call('PATCH', `${base}/3`, { token: bobToken, json: { permission: { name: 'x' } } }),
      403,
    );
    expectKeyrockError(await call('DELETE', `${base}/1`, { token: bobToken }), 403);
    expectKeyrockError(await call('GET', base, { token: carolToken }), 403);
    expectKeyrockError(await call('GET', `${base}/p999999`, { token: bobToken }), 404);
  });

  it('checks regex resources before storing them; a safe one is stored with is_regex', async () => {
    const id = await createApp();
    const base = `/v1/applications/${id}/permissions`;
    const post = (resource: string) =>
      call('POST', base, {
        token: bobToken,
        json: { permission: { name: 'r', action: 'GET', resource, is_regex: true } },
      });
    for (const evil of ['(a+)+$', '^(a|a)*$', '(x)\\1', '(?=a)', '.*.*.*', 'a{1000}', '[', 'a'.repeat(201)]) {
      expectKeyrockError(await post(evil), 400);
    }
    const safe = await post('^/v2/entities/[^/]+/attrs$');
    expect(safe.status).toBe(201);
    expect(safe.body.permission).toMatchObject({ is_regex: true, resource: '^/v2/entities/[^/]+/attrs$' });
    // Turning an existing permission into a pattern checks its resource too.
    const plain = await call('POST', base, {
      token: bobToken,
      json: { permission: { name: 'plain', action: 'GET', resource: '(a+)+' } },
    });
    expect(plain.status).toBe(201);
    const pid = (plain.body.permission as { id: string }).id;
    const patch = await call('PATCH', `${base}/${pid}`, {
      token: bobToken,
      json: { permission: { is_regex: true } },
    });
    expectKeyrockError(patch, 400);
  });

  it('assigns a permission to a role with PUT or POST, lists and removes it (Keyrock’s 010 flow)', async () => {
    const id = await createApp();
    const appId = (await getClient(service.db, id))!.appId;
    const role = await call('POST', `/v1/applications/${id}/roles`, {
      token: bobToken,
      json: { role: { name: 'role 1' } },
    });
    const roleId = (role.body.role as { id: string }).id;
    const perm = await call('POST', `/v1/applications/${id}/permissions`, {
      token: bobToken,
      json: { permission: { name: 'permission 1', action: 'GET', resource: 'login' } },
    });
    const permId = (perm.body.permission as { id: string }).id;
    const path = `/v1/applications/${id}/roles/${roleId}/permissions`;
    expectKeyrockError(await call('GET', path, { token: bobToken }), 404, 'Assignments not found');
    for (const method of ['POST', 'PUT']) {
      const res = await call(method, `${path}/${permId}`, { token: bobToken });
      expect(res.status).toBe(201);
      expect(res.body).toEqual({ role_permission_assignments: { role_id: roleId, permission_id: permId } });
    }
    const summary = rulesFromSummary(await getItem(service.db, keys.catalogue(appId)), appId)!;
    expect([...(summary.switches.get(Number(roleId)) ?? [])]).toEqual([Number(permId.slice(1))]);
    const list = await call('GET', path, { token: bobToken });
    expect((list.body.role_permission_assignments as { id: string }[]).map((p) => p.id)).toEqual([permId]);
    expectKeyrockError(
      await call('POST', `/v1/applications/${id}/roles/provider/permissions/${permId}`, { token: bobToken }),
      403,
    );
    expectKeyrockError(await call('PUT', `${path}/p999999`, { token: bobToken }), 404);
    expectKeyrockError(await call('PUT', `${path}/${permId}`, { token: carolToken }), 403);
    const provider = await call('GET', `/v1/applications/${id}/roles/provider/permissions`, {
      token: bobToken,
    });
    expect((provider.body.role_permission_assignments as { id: string }[]).map((p) => p.id)).toEqual([
      '1',
      '2',
      '3',
      '4',
      '5',
      '6',
    ]);
    expect((await call('DELETE', `${path}/${permId}`, { token: bobToken })).status).toBe(204);
    expectKeyrockError(await call('DELETE', `${path}/${permId}`, { token: bobToken }), 404);
    expect((await roleCatalogue(service.db, appId)).switches.get(Number(roleId)) ?? new Set()).toEqual(
      new Set(),
    );
  });
});

describe('role assignments to users and organizations', () => {
  it('gives, lists and takes users’ roles (Keyrock’s 011 flow); a role given is a role held', async () => {
    const id = await createApp();
    const role = await call('POST', `/v1/applications/${id}/roles`, {
      token: bobToken,
      json: { role: { name: 'Role 1' } },
    });
    const roleId = (role.body.role as { id: string }).id;
    const users = `/v1/applications/${id}/users`;
    const dave = await register('dave@test.com', 'dave');
    const refused = await call('POST', `${users}/${dave.id}/roles/${roleId}`, { token: carolToken });
    expectKeyrockError(refused, 403);
    for (const method of ['POST', 'PUT']) {
      const res = await call(method, `${users}/${dave.id}/roles/${roleId}`, { token: bobToken });
      expect(res.status).toBe(201);
      expect(res.body).toEqual({
        role_user_assignments: { role_id: roleId, user_id: String(dave.id), oauth_client_id: id },
      });
    }
    const all = await call('GET', users, { token: bobToken });
    expect(all.body.role_user_assignments).toEqual([
      { user_id: String(bob.id), role_id: 'provider' },
      { user_id: String(dave.id), role_id: roleId },
    ]);
    // Purchaser given to carol lets her read the application and see only its own roles' holders.
    expect((await call('PUT', `${users}/${carol.id}/roles/purchaser`, { token: bobToken })).status).toBe(201);
    expect((await call('GET', `/v1/applications/${id}`, { token: carolToken })).status).toBe(200);
    const asPurchaser = await call('GET', users, { token: carolToken });
    expect(asPurchaser.body.role_user_assignments).toEqual([{ user_id: String(dave.id), role_id: roleId }]);
    expectKeyrockError(await call('PUT', `${users}/${carol.id}/roles/provider`, { token: carolToken }), 403);
    expectKeyrockError(
      await call('PATCH', `/v1/applications/${id}`, {
        token: carolToken,
        json: { application: { name: 'x' } },
      }),
      403,
    );
    const mine = await call('GET', `${users}/${dave.id}/roles`, { token: bobToken });
    expect(mine.body.role_user_assignments).toEqual([{ user_id: String(dave.id), role_id: roleId }]);
    expectKeyrockError(await call('PUT', `${users}/999999/roles/${roleId}`, { token: bobToken }), 404);
    expectKeyrockError(await call('PUT', `${users}/${dave.id}/roles/424242`, { token: bobToken }), 404);
    expect((await call('DELETE', `${users}/${dave.id}/roles/${roleId}`, { token: bobToken })).status).toBe(
      204,
    );
    expectKeyrockError(await call('DELETE', `${users}/${dave.id}/roles/${roleId}`, { token: bobToken }), 404);
    expectKeyrockError(await call('GET', `${users}/${dave.id}/roles`, { token: bobToken }), 404);
  });

  it('gives a role to an organization’s members or its owners, each on its own, as Keyrock does', async () => {
    const id = await createApp();
    const appId = (await getClient(service.db, id))!.appId;
    const org = await createOrganization(service.db, {
      name: 'Acme',
      description: '',
      ownerUserId: carol.id,
    });
    const summary = async () => orgRoleSets(await getItem(service.db, keys.orgRoles(appId, org.id)));
    const carolCanRead = async () =>
      (await call('GET', `/v1/applications/${id}`, { token: carolToken })).status;
    const base = `/v1/applications/${id}/organizations`;
    expectKeyrockError(await call('GET', base, { token: bobToken }), 404, 'Assignments not found');
    const member = `${base}/${org.id}/roles/purchaser/organization_roles/member`;
    const owner = `${base}/${org.id}/roles/purchaser/organization_roles/owner`;
    const res = await call('PUT', member, { token: bobToken });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      role_organization_assignments: {
        role_id: 'purchaser',
        organization_id: String(org.id),
        oauth_client_id: id,
        role_organization: 'member',
      },
    });
    expect(await summary()).toEqual({ all: [], member: [expect.any(Number)], owner: [] });
    // Carol owns Acme: a role given to its members is not hers (Keyrock's /user says the same).
    expect(await carolCanRead()).toBe(403);
    expect((await call('GET', base, { token: bobToken })).body.role_organization_assignments).toEqual([
      { organization_id: String(org.id), role_organization: 'member', role_id: 'purchaser' },
    ]);

    const toOwners = await call('POST', owner, { token: bobToken });
    expect(toOwners.status).toBe(201);
    expect(toOwners.body.role_organization_assignments).toMatchObject({ role_organization: 'owner' });
    expect(await carolCanRead()).toBe(200);
    // Members and owners both: the whole organization holds it.
    expect(await summary()).toEqual({ all: [expect.any(Number)], member: [], owner: [] });
    expect((await call('GET', base, { token: bobToken })).body.role_organization_assignments).toEqual([
      { organization_id: String(org.id), role_organization: 'owner', role_id: 'purchaser' },
      { organization_id: String(org.id), role_organization: 'member', role_id: 'purchaser' },
    ]);
    const roles = await call('GET', `${base}/${org.id}/roles`, { token: bobToken });
    expect(roles.body.role_organization_assignments).toEqual([
      { organization_id: String(org.id), role_id: 'purchaser' },
      { organization_id: String(org.id), role_id: 'purchaser' },
    ]);

    expect((await call('DELETE', member, { token: bobToken })).status).toBe(204);
    expectKeyrockError(await call('DELETE', member, { token: bobToken }), 404);
    expect(await summary()).toEqual({ all: [], member: [], owner: [expect.any(Number)] });
    expect(await carolCanRead()).toBe(200);
    expectKeyrockError(
      await call('PUT', `${base}/${org.id}/roles/purchaser/organization_roles/boss`, { token: bobToken }),
      404,
    );
    expectKeyrockError(
      await call('PUT', `${base}/999999/roles/purchaser/organization_roles/member`, { token: bobToken }),
      404,
    );
    expect((await call('DELETE', owner, { token: bobToken })).status).toBe(204);
    expect(await summary()).toEqual({ all: [], member: [], owner: [] });
    expect(await carolCanRead()).toBe(403);
    expectKeyrockError(await call('DELETE', owner, { token: bobToken }), 404);
    expectKeyrockError(await call('GET', base, { token: bobToken }), 404, 'Assignments not found');
  });
});

describe('decisions with /v1 permissions', () => {
  it('permits by a pattern permission (is_regex) and by an exact one, as Keyrock’s PDP does', async () => {
    const created = await call('POST', '/v1/applications', {
      token: bobToken,
      json: { application: { name: 'PDP', redirect_uri: 'http://localhost/cb', grant_type: ['password'] } },
    });
    const app = created.body.application as { id: string; secret: string };
    const role = await call('POST', `/v1/applications/${app.id}/roles`, {
      token: bobToken,
      json: { role: { name: 'reader' } },
    });
    const roleId = (role.body.role as { id: string }).id;
    for (const permission of [
      { name: 'entities', action: 'GET', resource: '^/v2/entities/[^/]+$', is_regex: true },
      { name: 'version', action: 'GET', resource: '/version' },
      {
        name: 'tenant',
        action: 'POST',
        resource: '/v2/op/update',
        use_authorization_service_header: true,
        authorization_service_header: 'smartcity',
      },
    ]) {
      const p = await call('POST', `/v1/applications/${app.id}/permissions`, {
        token: bobToken,
        json: { permission },
      });
      const pid = (p.body.permission as { id: string }).id;
      expect(
        (
          await call('PUT', `/v1/applications/${app.id}/roles/${roleId}/permissions/${pid}`, {
            token: bobToken,
          })
        ).status,
      ).toBe(201);
    }
    expect(
      (await call('PUT', `/v1/applications/${app.id}/users/${carol.id}/roles/${roleId}`, { token: bobToken }))
        .status,
    ).toBe(201);
    const grant = await fetch(`${service.url}/oauth2/token`, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        authorization: `Basic ${Buffer.from(`${app.id}:${app.secret}`).toString('base64')}`,
      },
      body: new URLSearchParams({ grant_type: 'password', username: carol.email, password: PASSWORD }),
    });
    const accessToken = ((await grant.json()) as { access_token: string }).access_token;
    const decision = async (action: string, resource: string, header?: string) => {
      const q = new URLSearchParams({ access_token: accessToken, action, resource, app_id: app.id });
      if (header) q.set('authorization_service_header', header);
      const res = await fetch(`${service.url}/user?${q}`);
      return ((await res.json()) as { authorization_decision: string }).authorization_decision;
    };
    expect(await decision('GET', '/v2/entities/Room1')).toBe('Permit');
    expect(await decision('GET', '/V2/ENTITIES/room1')).toBe('Permit');
    expect(await decision('GET', '/v2/entities/Room1/attrs')).toBe('Deny');
    expect(await decision('POST', '/v2/entities/Room1')).toBe('Deny');
    expect(await decision('GET', '/version')).toBe('Permit');
    expect(await decision('GET', '/version/x')).toBe('Deny');
    expect(await decision('GET', `/v2/entities/${'a'.repeat(3000)}`)).toBe('Deny');
    // A permission that uses the service header applies only with that header.
    expect(await decision('POST', '/v2/op/update', 'smartcity')).toBe('Permit');
    expect(await decision('POST', '/v2/op/update', 'other')).toBe('Deny');
    expect(await decision('POST', '/v2/op/update')).toBe('Deny');
  });

  it('decides for an organization’s members by its members’ roles and for its owners by its owners’', async () => {
    const created = await call('POST', '/v1/applications', {
      token: bobToken,
      json: {
        application: { name: 'Orders', redirect_uri: 'http://localhost/cb', grant_type: ['password'] },
      },
    });
    const app = created.body.application as { id: string; secret: string };
    const erin = await register('erin@test.com', 'erin');
    const org = await createOrganization(service.db, {
      name: 'Buyers',
      description: '',
      ownerUserId: carol.id,
    });
    await setMember(service.db, org.id, erin.id, 'member');
    const grant = async (roleName: string, action: string, resource: string, holder: 'member' | 'owner') => {
      const roleId = await roleWithPermission(bobToken, app.id, roleName, {
        name: roleName,
        action,
        resource,
      });
      const path = `/v1/applications/${app.id}/organizations/${org.id}/roles/${roleId}/organization_roles/${holder}`;
      expect((await call('PUT', path, { token: bobToken })).status).toBe(201);
    };
    await grant('Editor', 'POST', '/orders', 'member');
    await grant('Auditor', 'GET', '/audit', 'owner');
    const asUser = async (email: string) => {
      const res = await fetch(`${service.url}/oauth2/token`, {
        method: 'POST',
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          authorization: `Basic ${Buffer.from(`${app.id}:${app.secret}`).toString('base64')}`,
        },
        body: new URLSearchParams({ grant_type: 'password', username: email, password: PASSWORD }),
      });
      const token = ((await res.json()) as { access_token: string }).access_token;
      return async (action: string, resource: string) => {
        const q = new URLSearchParams({ access_token: token, action, resource, app_id: app.id });
        const user = await fetch(`${service.url}/user?${q}`);
        expect(user.status).toBe(200);
        return (await user.json()) as {
          authorization_decision: string;
          organizations: { name: string; roles: { name: string }[] }[];
        };
      };
    };
    const owner = await asUser(carol.email);
    const member = await asUser(erin.email);
    expect((await owner('GET', '/audit')).authorization_decision).toBe('Permit');
    expect((await owner('POST', '/orders')).authorization_decision).toBe('Deny');
    expect((await member('POST', '/orders')).authorization_decision).toBe('Permit');
    const seen = await member('GET', '/audit');
    expect(seen.authorization_decision).toBe('Deny');
    expect(seen.organizations).toEqual([
      expect.objectContaining({ name: 'Buyers', roles: [expect.objectContaining({ name: 'Editor' })] }),
    ]);
    expect((await owner('GET', '/audit')).organizations).toContainEqual(
      expect.objectContaining({ name: 'Buyers', roles: [expect.objectContaining({ name: 'Auditor' })] }),
    );
  });
});
