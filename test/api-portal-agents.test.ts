import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getAgent } from '../shared/store/agents.js';
import type { User } from '../shared/store/users.js';
import { iotSignIn, pepSignIn } from './support/keyrock.js';
import { newApp, newUser, signedIn } from './support/oauth.js';
import { startService, type TestService } from './support/service.js';

/**
 * The application page's PEP proxy, IoT agents and trusted applications through the portal API
 * on the local server: the same domain functions as Keyrock's /v1, under the portal's rules
 * (Provider changes, Purchaser reads the trusted list, session and CSRF as everywhere).
 */
let service: TestService;
let owner: User;
let stranger: User;
let purchaser: User;
let ownerSession: Session;

interface Session {
  cookie: string;
  csrf: string;
}

beforeAll(async () => {
  service = await startService();
  [owner, stranger, purchaser] = await Promise.all([
    newUser(service.db, 'owner'),
    newUser(service.db, 'stranger'),
    newUser(service.db, 'purchaser'),
  ]);
  ownerSession = await signedIn(service.db, owner.id);
});
afterAll(() => service.close());

async function call(
  session: Session | undefined,
  method: string,
  path: string,
  body?: unknown,
  { csrf = true } = {},
) {
  const headers: Record<string, string> = {};
  if (session) headers.cookie = session.cookie;
  if (session && csrf && method !== 'GET') headers['x-csrf-token'] = session.csrf;
  if (body !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(`${service.url}${path}`, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined };
}

const own = (method: string, path: string, body?: unknown) => call(ownerSession, method, path, body);

const app = (name: string) =>
  newApp(service.db, owner.id, { name, grantTypes: ['authorization_code', 'password'] });

describe('PEP proxy in the portal', () => {
  it('creates one (password shown once, a second is 409), resets and deletes it', async () => {
    const { app: a } = await app('Guarded');
    const base = `/api/applications/${a.id}`;
    expect(await own('GET', `${base}/agents`)).toEqual({
      status: 200,
      body: { pepProxy: null, iotAgents: [] },
    });

    const created = await own('POST', `${base}/pep-proxy`);
    expect(created.status).toBe(201);
    const pep = created.body as { id: string; password: string };
    expect(pep).toEqual({
      id: expect.stringMatching(/^pep_proxy_[0-9a-f-]{36}$/),
      password: expect.stringMatching(/^pep_proxy_[0-9a-f-]{36}$/),
    });
    // Only a bcrypt hash is kept, and the list shows the id alone.
    expect((await getAgent(service.db, 'pep', pep.id))!.passwordHash).toMatch(/^\$2[aby]\$/);
    expect((await own('GET', `${base}/agents`)).body).toEqual({ pepProxy: { id: pep.id }, iotAgents: [] });
    expect(await pepSignIn(service.url, pep.id, pep.password)).toBe(201);

    const second = await own('POST', `${base}/pep-proxy`);
    expect(second.status).toBe(409);
    expect(second.body.error_description).toBe('Pep Proxy already registered');

    const reset = await own('POST', `${base}/pep-proxy/password`);
    expect(reset.status).toBe(200);
    expect(reset.body.password).toMatch(/^pep_proxy_/);
    expect(reset.body.password).not.toBe(pep.password);
    expect(await pepSignIn(service.url, pep.id, pep.password)).toBe(401);
    expect(await pepSignIn(service.url, pep.id, reset.body.password)).toBe(201);

    expect(await own('DELETE', `${base}/pep-proxy`)).toEqual({ status: 200, body: { deleted: true } });
    expect((await own('GET', `${base}/agents`)).body.pepProxy).toBeNull();
    expect(await pepSignIn(service.url, pep.id, reset.body.password)).toBe(401);
    expect((await own('DELETE', `${base}/pep-proxy`)).status).toBe(404);
    expect((await own('POST', `${base}/pep-proxy/password`)).status).toBe(404);
  });
});

describe('IoT agents in the portal', () => {
  it('adds agents that sign in with the password grant, resets and deletes them', async () => {
    const registered = await app('Sensors');
    const base = `/api/applications/${registered.app.id}`;
    const first = await own('POST', `${base}/iot-agents`);
    const second = await own('POST', `${base}/iot-agents`);
    expect(first.status).toBe(201);
    expect(first.body).toEqual({
      id: expect.stringMatching(/^iot_sensor_[0-9a-f-]{36}$/),
      password: expect.stringMatching(/^iot_sensor_/),
    });
    const ids = [first.body.id, second.body.id].sort();
    expect((await own('GET', `${base}/agents`)).body).toEqual({
      pepProxy: null,
      iotAgents: ids.map((id) => ({ id })),
    });
    expect(await iotSignIn(service.url, registered, first.body.id, first.body.password)).toBe(200);

    const reset = await own('POST', `${base}/iot-agents/${first.body.id}/password`);
    expect(reset.status).toBe(200);
    expect(reset.body).toEqual({ id: first.body.id, password: expect.stringMatching(/^iot_sensor_/) });
    expect(await iotSignIn(service.url, registered, first.body.id, first.body.password)).toBe(400);
    expect(await iotSignIn(service.url, registered, first.body.id, reset.body.password)).toBe(200);

    // Another application's agent is not found through this one.
    const { app: other } = await app('Other sensors');
    const foreign = await own('DELETE', `/api/applications/${other.id}/iot-agents/${first.body.id}`);
    expect(foreign.status).toBe(404);
    expect(foreign.body.error_description).toBe('Iot Agent not found');

    expect(await own('DELETE', `${base}/iot-agents/${first.body.id}`)).toEqual({
      status: 200,
      body: { deleted: first.body.id },
    });
    expect((await own('GET', `${base}/agents`)).body.iotAgents).toEqual([{ id: second.body.id }]);
    expect((await own('DELETE', `${base}/iot-agents/${first.body.id}`)).status).toBe(404);
    expect((await own('POST', `${base}/iot-agents/no%20such/password`)).status).toBe(404);
  });
});

describe('trusted applications in the portal', () => {
  it('trusts another application by client id, lists it by name and removes it', async () => {
    const { app: a } = await app('Trusting');
    const { app: b } = await newApp(service.db, stranger.id, { name: 'Trusted elsewhere' });
    const base = `/api/applications/${a.id}/trusted-applications`;
    expect(await own('GET', base)).toEqual({ status: 200, body: { trustedApplications: [] } });
    expect(await own('POST', base, { clientId: b.clientId })).toEqual({
      status: 201,
      body: { clientId: b.clientId },
    });
    expect((await own('GET', base)).body).toEqual({
      trustedApplications: [{ clientId: b.clientId, name: 'Trusted elsewhere' }],
    });

    const again = await own('POST', base, { clientId: b.clientId });
    expect(again.status).toBe(400);
    expect(again.body.error_description).toBe('Trusted application already added');
    expect((await own('POST', base, { clientId: a.clientId })).status).toBe(400);
    expect((await own('POST', base, { clientId: 'no-such-client' })).status).toBe(404);
    expect((await own('POST', base, { clientId: 'idm_admin_app' })).status).toBe(403);
    const missing = await own('POST', base, {});
    expect(missing.status).toBe(400);
    expect(missing.body.field).toBe('clientId');

    expect(await own('DELETE', `${base}/${b.clientId}`)).toEqual({
      status: 200,
      body: { removed: b.clientId },
    });
    expect((await own('GET', base)).body.trustedApplications).toEqual([]);
    expect((await own('DELETE', `${base}/${b.clientId}`)).status).toBe(400);
  });
});

describe('the portal’s rules', () => {
  it('lets a Purchaser read the trusted list only, and nobody else anything (403)', async () => {
    const { app: a } = await app('Ruled');
    const base = `/api/applications/${a.id}`;
    const detail = await own('GET', base);
    const purchaserRole = (detail.body.roles as { id: number; builtIn: string | null }[]).find(
      (r) => r.builtIn === 'purchaser',
    )!;
    const granted = await own('POST', `${base}/authorizations`, {
      user: purchaser.email,
      roleId: purchaserRole.id,
    });
    expect(granted.status).toBe(201);
    const { app: b } = await app('To trust');
    expect((await own('POST', `${base}/trusted-applications`, { clientId: b.clientId })).status).toBe(201);
    await own('POST', `${base}/pep-proxy`);

    const buyer = await signedIn(service.db, purchaser.id);
    const read = await call(buyer, 'GET', `${base}/trusted-applications`);
    expect(read).toEqual({
      status: 200,
      body: { trustedApplications: [{ clientId: b.clientId, name: 'To trust' }] },
    });
    const outsider = await signedIn(service.db, stranger.id);
    const refused: [Session, string, string, unknown?][] = [
      [buyer, 'GET', `${base}/agents`],
      [buyer, 'POST', `${base}/pep-proxy/password`],
      [buyer, 'POST', `${base}/iot-agents`],
      [buyer, 'POST', `${base}/trusted-applications`, { clientId: b.clientId }],
      [buyer, 'DELETE', `${base}/trusted-applications/${b.clientId}`],
      [outsider, 'GET', `${base}/agents`],
      [outsider, 'GET', `${base}/trusted-applications`],
      [outsider, 'POST', `${base}/pep-proxy`],
      [outsider, 'DELETE', `${base}/pep-proxy`],
      [outsider, 'DELETE', `${base}/iot-agents/iot_sensor_x`],
    ];
    for (const [session, method, path, body] of refused) {
      const res = await call(session, method, path, body);
      expect(res.status, `${method} ${path}`).toBe(403);
    }
    // Nothing changed: the proxy and the trust are still there.
    expect((await own('GET', `${base}/agents`)).body.pepProxy).not.toBeNull();
    expect((await own('GET', `${base}/trusted-applications`)).body.trustedApplications).toHaveLength(1);
  });

  it('needs the session’s CSRF token to change anything, and a session at all', async () => {
    const { app: a } = await app('Forged');
    const base = `/api/applications/${a.id}`;
    for (const [method, path] of [
      ['POST', `${base}/pep-proxy`],
      ['POST', `${base}/iot-agents`],
      ['DELETE', `${base}/pep-proxy`],
      ['DELETE', `${base}/trusted-applications/x`],
    ] as const) {
      expect((await call(ownerSession, method, path, undefined, { csrf: false })).status).toBe(403);
    }
    expect((await own('GET', `${base}/agents`)).body).toEqual({ pepProxy: null, iotAgents: [] });
    expect((await call(undefined, 'GET', `${base}/agents`)).status).toBe(401);
    expect((await call(undefined, 'POST', `${base}/pep-proxy`)).status).toBe(401);
  });

  it('answers 404 for an unknown application and 400 for an id that is no number', async () => {
    for (const path of ['agents', 'trusted-applications']) {
      const res = await own('GET', `/api/applications/987654321/${path}`);
      expect(res.status).toBe(404);
      expect(res.body.error_description).toBe('Application 987654321 does not exist.');
    }
    expect((await own('POST', '/api/applications/987654321/pep-proxy')).status).toBe(404);
    const bad = await own('GET', '/api/applications/abc/agents');
    expect(bad.status).toBe(400);
    expect(bad.body.field).toBe('id');
  });
});
