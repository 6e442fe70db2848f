import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerUser } from '../shared/domain/accounts.js';
import { keyrockHash } from '../shared/domain/passwords.js';
import { setAdministrator } from '../shared/domain/user-admin.js';
import { getAgent, putPepProxy } from '../shared/store/agents.js';
import { getClient } from '../shared/store/applications.js';
import type { User } from '../shared/store/users.js';
import { expectKeyrockError, keyrockClient } from './support/keyrock.js';
import { basic, postForm } from './support/oauth.js';
import { startService, type TestService } from './support/service.js';

/**
 * Keyrock's PEP proxy and IoT agent credentials and trusted applications through the local
 * server (controllers/api/pep_proxies.js, iot_agents.js, trusted_applications.js), and GET /user
 * as the PEP proxy calls it (lib/pdp/keyrock.js of ging/fiware-pep-proxy).
 */
let service: TestService;
const { call, signIn, register, roleWithPermission } = keyrockClient(() => service);
let admin: User;
let bob: User;
let carol: User;
let bobToken: string;
let carolToken: string;

const APP = (name: string) => ({
  application: {
    name,
    description: 'guarded by a PEP proxy',
    redirect_uri: 'http://localhost/login',
    url: 'http://localhost',
    grant_type: ['authorization_code', 'password', 'client_credentials'],
  },
});

async function createApp(name: string, token = bobToken): Promise<{ id: string; secret: string }> {
  const res = await call('POST', '/v1/applications', { token, json: APP(name) });
  expect(res.status).toBe(201);
  return res.body.application as { id: string; secret: string };
}

/** POST with Keyrock's JSON content type and no body, as its tests send these. */
const post = (path: string, token: string) => call('POST', path, { token, type: 'application/json' });
const patch = (path: string, token: string) => call('PATCH', path, { token, type: 'application/json' });
const put = (path: string, token: string) => call('PUT', path, { token, type: 'application/json' });

beforeAll(async () => {
  service = await startService();
  admin = await setAdministrator(service.db, (await register('alice-the-admin@test.com', 'alice')).id, true);
  bob = await register('bob-the-manager@test.com', 'bob');
  carol = await register('carol@test.com', 'carol');
  [bobToken, carolToken] = await Promise.all([signIn(bob.email), signIn(carol.email)]);
  expect(admin.admin).toBe(true);
});
afterAll(() => service.close());

describe('/v1/applications/:id/pep_proxies', () => {
  it('creates one PEP proxy: id and password shown once, bcrypt stored, a second is 409', async () => {
    const app = await createApp('pep create');
    const res = await post(`/v1/applications/${app.id}/pep_proxies`, bobToken);
    expect(res.status).toBe(201);
    const pep = res.body.pep_proxy as { id: string; password: string };
    expect(pep).toEqual({
      id: expect.stringMatching(/^pep_proxy_[0-9a-f-]{36}$/),
      password: expect.stringMatching(/^pep_proxy_[0-9a-f-]{36}$/),
    });
    const stored = (await getAgent(service.db, 'pep', pep.id))!;
    expect(stored.passwordHash).toMatch(/^\$2[aby]\$/);
    expect(stored.passwordHash).not.toContain(pep.password);
    expectKeyrockError(
      await post(`/v1/applications/${app.id}/pep_proxies`, bobToken),
      409,
      'Pep Proxy already registered',
    );
    const read = await call('GET', `/v1/applications/${app.id}/pep_proxies`, { token: bobToken });
    expect(read.status).toBe(200);
    expect(read.body).toEqual({ pep_proxy: { id: pep.id, oauth_client_id: app.id } });
  });

  it('signs the proxy in at /v3/auth/tokens and /v1/auth/tokens with Keyrock’s answer', async () => {
    const app = await createApp('pep sign-in');
    const pep = (await post(`/v1/applications/${app.id}/pep_proxies`, bobToken)).body.pep_proxy as {
      id: string;
      password: string;
    };
    for (const path of ['/v3/auth/tokens', '/v1/auth/tokens']) {
      const res = await call('POST', path, { json: { name: pep.id, password: pep.password } });
      expect(res.status).toBe(201);
      expect(res.headers.get('x-subject-token')).toMatch(/^pep_[A-Za-z0-9_-]{43}$/);
      expect(res.body).toEqual({
        token: { methods: ['password'], expires_at: expect.any(String) },
        idm_authorization_config: { level: 'basic', authzforce: false },
      });
    }
    expectKeyrockError(
      await call('POST', '/v3/auth/tokens', { json: { name: pep.id, password: 'pep_proxy_wrong' } }),
      401,
      'Invalid id or password',
    );
    expectKeyrockError(
      await call('POST', '/v3/auth/tokens', { json: { name: 'pep_proxy_unknown', password: 'x' } }),
      401,
      'Invalid id or password',
    );
    // Keyrock's is_user: the proxy's token is no key to the rest of /v1.
    const token = (
      await call('POST', '/v3/auth/tokens', { json: { name: pep.id, password: pep.password } })
    ).headers.get('x-subject-token')!;
    expectKeyrockError(
      await call('GET', '/v1/applications', { token }),
      403,
      'User not allow to perform the action',
    );
    // A live proxy token is a credential for a new one, as in Keyrock; a user's token is not its.
    const renewed = await call('POST', '/v3/auth/tokens', { json: { token } });
    expect(renewed.status).toBe(201);
    expect(renewed.body.token).toEqual({ methods: ['token'], expires_at: expect.any(String) });
    expectKeyrockError(
      await call('POST', '/v3/auth/tokens', {
        json: { name: pep.id, password: pep.password, token: bobToken },
      }),
      401,
      'Token not correspond to user',
    );
  });

  it('locks a proxy id after 5 wrong passwords: 429 even with the right one', async () => {
    const app = await createApp('pep guard');
    const pep = (await post(`/v1/applications/${app.id}/pep_proxies`, bobToken)).body.pep_proxy as {
      id: string;
      password: string;
    };
    for (let i = 0; i < 5; i++) {
      const res = await call('POST', '/v1/auth/tokens', { json: { name: pep.id, password: `wrong-${i}` } });
      expect(res.status).toBe(401);
    }
    const locked = await call('POST', '/v1/auth/tokens', { json: { name: pep.id, password: pep.password } });
    expectKeyrockError(locked, 429);
  });

  it('resets the password (PATCH): the new one works, the old one no longer', async () => {
    const app = await createApp('pep reset');
    const pep = (await post(`/v1/applications/${app.id}/pep_proxies`, bobToken)).body.pep_proxy as {
      id: string;
      password: string;
    };
    const res = await patch(`/v1/applications/${app.id}/pep_proxies`, bobToken);
    expect(res.status).toBe(200);
    const fresh = res.body.new_password as string;
    expect(fresh).toMatch(/^pep_proxy_/);
    expect(fresh).not.toBe(pep.password);
    expect(
      (await call('POST', '/v3/auth/tokens', { json: { name: pep.id, password: pep.password } })).status,
    ).toBe(401);
    expect((await call('POST', '/v3/auth/tokens', { json: { name: pep.id, password: fresh } })).status).toBe(
      201,
    );
  });

  it('deletes the proxy (204); then read, reset, delete are 404 and it cannot sign in', async () => {
    const app = await createApp('pep delete');
    const pep = (await post(`/v1/applications/${app.id}/pep_proxies`, bobToken)).body.pep_proxy as {
      id: string;
      password: string;
    };
    const res = await call('DELETE', `/v1/applications/${app.id}/pep_proxies`, { token: bobToken });
    expect(res.status).toBe(204);
    const path = `/v1/applications/${app.id}/pep_proxies`;
    expectKeyrockError(await call('GET', path, { token: bobToken }), 404, 'Pep Proxy not found');
    expectKeyrockError(await patch(path, bobToken), 404, 'Pep Proxy not found');
    expectKeyrockError(await call('DELETE', path, { token: bobToken }), 404, 'Pep Proxy not found');
    expect(
      (await call('POST', '/v3/auth/tokens', { json: { name: pep.id, password: pep.password } })).status,
    ).toBe(401);
    // A new one may be made once the old one is gone.
    expect((await post(path, bobToken)).status).toBe(201);
  });

  it('goes with its application: deleting the application ends the proxy’s sign-in', async () => {
    const app = await createApp('pep app delete');
    const pep = (await post(`/v1/applications/${app.id}/pep_proxies`, bobToken)).body.pep_proxy as {
      id: string;
      password: string;
    };
    expect((await call('DELETE', `/v1/applications/${app.id}`, { token: bobToken })).status).toBe(204);
    expect(await getAgent(service.db, 'pep', pep.id)).toBeUndefined();
    expect(
      (await call('POST', '/v3/auth/tokens', { json: { name: pep.id, password: pep.password } })).status,
    ).toBe(401);
  });

  it('refuses who is not Provider (403), an unknown application (404), a write without JSON type (400)', async () => {
    const app = await createApp('pep refusals');
    const path = `/v1/applications/${app.id}/pep_proxies`;
    expectKeyrockError(await post(path, carolToken), 403);
    expectKeyrockError(await call('GET', path, { token: carolToken }), 403);
    expectKeyrockError(await post('/v1/applications/no-such-app/pep_proxies', bobToken), 404);
    expectKeyrockError(
      await call('POST', path, { token: bobToken }),
      400,
      'Missing parameter: header Content-Type: application/json',
    );
    expectKeyrockError(await call('GET', path), 401);
  });

  it('signs in a proxy moved from Keyrock with its HMAC-SHA1 hash, which becomes bcrypt', async () => {
    const app = await createApp('pep imported');
    const client = (await getClient(service.db, app.id))!;
    const salt = '0123456789abcdef';
    const digest = createHmac('sha1', salt).update('keyrock-pep-secret').digest('hex');
    await putPepProxy(service.db, {
      id: 'pep_proxy_imported-from-keyrock',
      appId: client.appId,
      clientId: client.clientId,
      passwordHash: keyrockHash(salt, digest),
    });
    const wrong = await call('POST', '/v3/auth/tokens', {
      json: { name: 'pep_proxy_imported-from-keyrock', password: 'nope' },
    });
    expect(wrong.status).toBe(401);
    const res = await call('POST', '/v3/auth/tokens', {
      json: { name: 'pep_proxy_imported-from-keyrock', password: 'keyrock-pep-secret' },
    });
    expect(res.status).toBe(201);
    expect((await getAgent(service.db, 'pep', 'pep_proxy_imported-from-keyrock'))!.passwordHash).toMatch(
      /^\$2/,
    );
    const again = await call('POST', '/v3/auth/tokens', {
      json: { name: 'pep_proxy_imported-from-keyrock', password: 'keyrock-pep-secret' },
    });
    expect(again.status).toBe(201);
    // The import's put refuses a second proxy for the application.
    await expect(
      putPepProxy(service.db, {
        id: 'pep_proxy_second',
        appId: client.appId,
        clientId: client.clientId,
        passwordHash: keyrockHash(salt, digest),
      }),
    ).rejects.toMatchObject({ status: 409 });
  });
});

async function passwordGrant(app: { id: string; secret: string }, username: string, password: string) {
  return postForm(
    `${service.url}/oauth2/token`,
    { grant_type: 'password', username, password },
    {
      authorization: basic(app.id, app.secret),
    },
  );
}

describe('/v1/applications/:id/iot_agents', () => {
  it('creates, lists, reads, resets and deletes agents as Keyrock does', async () => {
    const app = await createApp('iot crud');
    const path = `/v1/applications/${app.id}/iot_agents`;
    expectKeyrockError(await call('GET', path, { token: bobToken }), 404, 'Iot agents not found');
    const created = await post(path, bobToken);
    expect(created.status).toBe(201);
    const agent = created.body.iot_agent as { id: string; password: string };
    expect(agent).toEqual({
      id: expect.stringMatching(/^iot_sensor_[0-9a-f-]{36}$/),
      password: expect.stringMatching(/^iot_sensor_/),
    });
    const second = (await post(path, bobToken)).body.iot_agent as { id: string };
    const list = await call('GET', path, { token: bobToken });
    expect(list.status).toBe(200);
    expect(list.body).toEqual({
      iot_agents: [{ id: agent.id }, { id: second.id }].sort((a, b) => (a.id < b.id ? -1 : 1)),
    });
    const read = await call('GET', `${path}/${agent.id}`, { token: bobToken });
    expect(read.body).toEqual({ iot_agent: { id: agent.id, oauth_client_id: app.id } });
    const reset = await patch(`${path}/${agent.id}`, bobToken);
    expect(reset.status).toBe(200);
    expect(reset.body.new_password).not.toBe(agent.password);
    expect((await call('DELETE', `${path}/${agent.id}`, { token: bobToken })).status).toBe(204);
    expectKeyrockError(
      await call('GET', `${path}/${agent.id}`, { token: bobToken }),
      404,
      'Iot Agent not found',
    );
    expectKeyrockError(await patch(`${path}/${agent.id}`, bobToken), 404, 'Iot Agent not found');
    expectKeyrockError(
      await call('DELETE', `${path}/${agent.id}`, { token: bobToken }),
      404,
      'Iot Agent not found',
    );
    expectKeyrockError(await call('GET', `${path}/not%20an%20id`, { token: bobToken }), 404);
    expectKeyrockError(await post(path, carolToken), 403);
  });

  it('does not show one application’s agent under another', async () => {
    const [one, two] = await Promise.all([createApp('iot one'), createApp('iot two')]);
    const agent = (await post(`/v1/applications/${one.id}/iot_agents`, bobToken)).body.iot_agent as {
      id: string;
    };
    expectKeyrockError(
      await call('GET', `/v1/applications/${two.id}/iot_agents/${agent.id}`, { token: bobToken }),
      404,
      'Iot Agent not found',
    );
  });

  it('signs an agent in with the password grant; GET /user describes it as Keyrock does', async () => {
    const [app, other] = await Promise.all([createApp('iot grant'), createApp('iot other')]);
    const agent = (await post(`/v1/applications/${app.id}/iot_agents`, bobToken)).body.iot_agent as {
      id: string;
      password: string;
    };
    const res = await passwordGrant(app, agent.id, agent.password);
    expect(res.status).toBe(200);
    const body = (await res.json()) as { access_token: string; refresh_token?: string; token_type: string };
    expect(body.token_type).toBe('bearer');
    expect(body.refresh_token).toBeUndefined();
    const user = await fetch(`${service.url}/user?access_token=${body.access_token}&app_id=${app.id}`);
    expect(user.status).toBe(200);
    expect(await user.json()).toEqual({
      id: agent.id,
      type: 'iot',
      displayName: '',
      roles: [],
      app_id: app.id,
      trusted_apps: [],
    });
    const decided = await fetch(
      `${service.url}/user?access_token=${body.access_token}&app_id=${app.id}&action=GET&resource=/orders`,
    );
    expect(((await decided.json()) as { authorization_decision: string }).authorization_decision).toBe(
      'Deny',
    );
    // Wrong password, another application's client, an unknown id: invalid_grant, alike.
    for (const attempt of [
      passwordGrant(app, agent.id, 'wrong'),
      passwordGrant(other, agent.id, agent.password),
      passwordGrant(app, 'iot_sensor_unknown', agent.password),
    ]) {
      const refused = await attempt;
      expect(refused.status).toBe(400);
      expect(((await refused.json()) as { error: string }).error).toBe('invalid_grant');
    }
  });
});

describe('/v1/applications/:id/trusted_applications', () => {
  it('adds (PUT and POST), lists and removes trusted applications with Keyrock’s answers', async () => {
    const [app, first, second] = await Promise.all([
      createApp('trusting'),
      createApp('trusted 1'),
      createApp('trusted 2'),
    ]);
    const base = `/v1/applications/${app.id}/trusted_applications`;
    expectKeyrockError(await call('GET', base, { token: bobToken }), 404, 'Trusted applications nof found');
    const added = await put(`${base}/${first.id}`, bobToken);
    expect(added.status).toBe(201);
    expect(added.body).toEqual({ oauth_client_id: app.id, trusted_oauth_client_id: first.id });
    expect((await post(`${base}/${second.id}`, bobToken)).status).toBe(201);
    expectKeyrockError(await put(`${base}/${first.id}`, bobToken), 400, 'Trusted application already added');
    expectKeyrockError(await put(`${base}/${app.id}`, bobToken), 400, 'Bad request');
    expectKeyrockError(
      await put(`${base}/no-such-app`, bobToken),
      404,
      'Application to be add as trusted not found',
    );
    expectKeyrockError(await put(`${base}/idm_admin_app`, bobToken), 403, 'Not allowed');
    expectKeyrockError(await put(`${base}/${first.id}`, carolToken), 403);
    const list = await call('GET', base, { token: bobToken });
    expect(list.body).toEqual({ trusted_applications: [first.id, second.id] });
    expect((await call('DELETE', `${base}/${first.id}`, { token: bobToken })).status).toBe(204);
    expectKeyrockError(
      await call('DELETE', `${base}/${first.id}`, { token: bobToken }),
      400,
      'Application has not that trusted application added',
    );
    expect((await call('GET', base, { token: bobToken })).body).toEqual({
      trusted_applications: [second.id],
    });
  });
});

describe('GET /user as the PEP proxy calls it', () => {
  let guarded: { id: string; secret: string };
  let partner: { id: string; secret: string };
  let stranger: { id: string; secret: string };
  let userToken: string;
  let partnerToken: string;
  let strangerToken: string;

  /** carol's token of `app` (password grant): she holds Clerk, and is no Provider anywhere. */
  async function tokenOf(app: { id: string; secret: string }): Promise<string> {
    const res = await passwordGrant(app, carol.email, 'correct horse battery');
    expect(res.status).toBe(200);
    return ((await res.json()) as { access_token: string }).access_token;
  }

  beforeAll(async () => {
    [guarded, partner, stranger] = await Promise.all([
      createApp('guarded'),
      createApp('partner'),
      createApp('stranger'),
    ]);
    // A role with GET /orders in the guarded application, held by carol.
    const roleId = await roleWithPermission(bobToken, guarded.id, 'Clerk', {
      name: 'read orders',
      action: 'GET',
      resource: '/orders',
    });
    expect(
      (await put(`/v1/applications/${guarded.id}/users/${carol.id}/roles/${roleId}`, bobToken)).status,
    ).toBe(201);
    expect(
      (await put(`/v1/applications/${guarded.id}/trusted_applications/${partner.id}`, bobToken)).status,
    ).toBe(201);
    [userToken, partnerToken, strangerToken] = await Promise.all([
      tokenOf(guarded),
      tokenOf(partner),
      tokenOf(stranger),
    ]);
  });

  const user = (query: string, headers: Record<string, string> = {}) =>
    fetch(`${service.url}/user?${query}`, { headers: { accept: 'application/json', ...headers } });

  it('answers Keyrock 8’s body with a Permit for the role’s verb and path', async () => {
    const res = await user(`access_token=${userToken}&app_id=${guarded.id}&action=GET&resource=/orders`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({
      id: carol.id,
      sub: carol.id,
      displayName: 'carol',
      username: 'carol',
      email: 'carol@test.com',
      roles: [{ id: expect.any(Number), name: 'Clerk' }],
      organizations: [],
      app_id: guarded.id,
      trusted_apps: [partner.id],
      authorization_decision: 'Permit',
    });
  });

  it('denies another verb; takes the token from Authorization: Bearer too', async () => {
    const res = await user(`app_id=${guarded.id}&action=DELETE&resource=/orders`, {
      authorization: `Bearer ${userToken}`,
      'x-auth-token': 'the-proxy-token-which-keyrock-does-not-check-here',
    });
    expect(res.status).toBe(200);
    expect(((await res.json()) as { authorization_decision: string }).authorization_decision).toBe('Deny');
  });

  it('accepts a trusted application’s token, with the roles and decision of app_id', async () => {
    const res = await user(`access_token=${partnerToken}&app_id=${guarded.id}&action=GET&resource=/orders`);
    expect(res.status).toBe(200);
    const body = (await res.json()) as Record<string, unknown>;
    expect(body).toMatchObject({
      app_id: partner.id,
      trusted_apps: [partner.id],
      roles: [{ name: 'Clerk' }],
      authorization_decision: 'Permit',
    });
  });

  it('refuses an untrusted application’s token and an unknown app_id with Keyrock’s 401 bodies', async () => {
    const untrusted = await user(
      `access_token=${strangerToken}&app_id=${guarded.id}&action=GET&resource=/orders`,
    );
    expect(untrusted.status).toBe(401);
    expect(await untrusted.json()).toBe('User not authorized in application');
    const unknown = await user(`access_token=${userToken}&app_id=no-such-app`);
    expect(unknown.status).toBe(401);
    expect(await unknown.json()).toEqual({ message: 'Unauthorized', code: 401, title: 'Unauthorized' });
  });

  it('refuses a revoked token', async () => {
    const token = await tokenOf(guarded);
    const revoke = await postForm(
      `${service.url}/oauth2/revoke`,
      { token },
      {
        authorization: basic(guarded.id, guarded.secret),
      },
    );
    expect(revoke.status).toBe(200);
    const res = await user(`access_token=${token}&app_id=${guarded.id}&action=GET&resource=/orders`);
    expect(res.status).toBe(401);
  });

  it('finds a user made with a Keyrock id by that id (Keyrock’s test 012 assigns a role so)', async () => {
    const dave = await registerUser(
      service.db,
      {
        email: 'dave@test.com',
        password: 'correct horse battery',
        displayName: 'dave',
        keyrockId: 'aaaaaaaa-good-0000-0000-000000000000',
      },
      4,
    );
    const roles = await call('GET', `/v1/applications/${guarded.id}/roles`, { token: bobToken });
    const clerk = (roles.body.roles as { id: string; name: string }[]).find((r) => r.name === 'Clerk')!;
    const assigned = await put(
      `/v1/applications/${guarded.id}/users/aaaaaaaa-good-0000-0000-000000000000/roles/${clerk.id}`,
      bobToken,
    );
    expect(assigned.status).toBe(201);
    const res = await passwordGrant(guarded, dave.email, 'correct horse battery');
    const token = ((await res.json()) as { access_token: string }).access_token;
    const answer = await user(`access_token=${token}&app_id=${guarded.id}&action=GET&resource=/orders`);
    expect(await answer.json()).toMatchObject({
      id: 'aaaaaaaa-good-0000-0000-000000000000',
      sub: 'aaaaaaaa-good-0000-0000-000000000000',
      authorization_decision: 'Permit',
    });
    await expect(
      registerUser(
        service.db,
        { email: 'eve@test.com', password: 'correct horse battery', keyrockId: 'a/b' },
        4,
      ),
    ).rejects.toMatchObject({ status: 400 });
  });

  it('answers a client’s own token with its application, as Keyrock', async () => {
    const res = await postForm(
      `${service.url}/oauth2/token`,
      { grant_type: 'client_credentials' },
      {
        authorization: basic(guarded.id, guarded.secret),
      },
    );
    const token = ((await res.json()) as { access_token: string }).access_token;
    const answer = await user(`access_token=${token}&app_id=${guarded.id}`);
    expect(await answer.json()).toEqual({ app_id: guarded.id, trusted_apps: [partner.id] });
  });
});
