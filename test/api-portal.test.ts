import { deflateSync } from 'node:zlib';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PortalSession } from './support/portal.js';
import { startService, type TestService } from './support/service.js';

let service: TestService;
beforeAll(async () => {
  service = await startService();
});
afterAll(() => service.close());

/** A browser-like client whose sign-up and sign-in must succeed. */
class Client extends PortalSession {
  constructor() {
    super(() => service.url);
  }
  async signUp(email: string, password = 'password-123', displayName = email.split('@')[0]) {
    const res = await this.call('POST', '/api/users', { email, password, displayName });
    expect(res.status).toBe(201);
    return res.body.user as { id: number; email: string; nickName: string };
  }
  override async signIn(email: string, password = 'password-123') {
    const res = await super.signIn(email, password);
    expect(res.status).toBe(200);
    return res;
  }
}

async function newUser(email: string) {
  const c = new Client();
  const user = await c.signUp(email);
  await c.signIn(email);
  return { c, user };
}

const APP = {
  name: 'Shop',
  description: 'An online shop',
  url: 'https://shop.example.com',
  callbackUrl: 'https://shop.example.com/callback',
};

async function createApp(c: Client, fields = APP) {
  const res = await c.call('POST', '/api/applications', fields);
  expect(res.status).toBe(201);
  return res.body as { application: { id: number; clientId: string }; clientSecret: string };
}

describe('sign-up and sign-in', () => {
  it('refuses bad sign-up input with a field-level 400 and a duplicate email with 409', async () => {
    const c = new Client();
    const short = await c.call('POST', '/api/users', {
      email: 'x@example.com',
      password: 'short',
      displayName: 'X',
    });
    expect(short.status).toBe(400);
    expect(short.body).toMatchObject({ field: 'password', error_description: expect.stringContaining('8') });
    const bad = await c.call('POST', '/api/users', {
      email: 'nope',
      password: 'password-123',
      displayName: 'X',
    });
    expect(bad.status).toBe(400);
    expect(bad.body.field).toBe('email');
    const form = await fetch(`${service.url}/api/users`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'email=a@b.cd&password=password-123',
    });
    expect(form.status).toBe(400);
    await c.signUp('dup@example.com');
    const dup = await c.call('POST', '/api/users', { email: 'DUP@example.com', password: 'password-123' });
    expect(dup.status).toBe(409);
    expect(dup.body.field).toBe('email');
  });

  it('signs in with a new HttpOnly SameSite=Lax session each time and returns the CSRF token', async () => {
    const c = new Client();
    const user = await c.signUp('alice@example.com');
    const first = await c.signIn('alice@example.com');
    expect(first.setCookie).toMatch(/^gatehouse_session=[^;]+; Path=\/; HttpOnly; SameSite=Lax/);
    expect(first.body).toMatchObject({
      user: { id: user.id, email: 'alice@example.com' },
      acting: { kind: 'user' },
    });
    expect(first.body.csrfToken).toMatch(/^[\w-]{20,}$/);
    expect(first.headers.get('cache-control')).toBe('no-store');
    const firstCookie = c.cookie;
    const again = await c.call('GET', '/api/session');
    expect(again.body.csrfToken).toBe(first.body.csrfToken);
    await c.signIn('alice@example.com');
    expect(c.cookie).not.toBe(firstCookie);
    // The old session was replaced, not kept alongside.
    const old = await fetch(`${service.url}/api/applications`, { headers: { cookie: firstCookie } });
    expect(old.status).toBe(401);
  });

  it('answers a wrong password with 401 and, after five failures, 429 with a clear message', async () => {
    const c = new Client();
    await c.signUp('bob@example.com');
    const missing = await c.call('POST', '/api/session', { email: 'bob@example.com' });
    expect(missing.status).toBe(400);
    expect(missing.body.field).toBe('password');
    for (let i = 0; i < 5; i++) {
      const res = await c.call('POST', '/api/session', {
        email: 'bob@example.com',
        password: 'wrong-password',
      });
      expect(res.status).toBe(401);
      expect(res.body.error_description).toBe('Invalid email or password.');
    }
    const locked = await c.call('POST', '/api/session', {
      email: 'bob@example.com',
      password: 'password-123',
    });
    expect(locked.status).toBe(429);
    expect(locked.body.error_description).toMatch(/Too many failed sign-in attempts/);
  });

  it('reports no user when signed out, and sign-out deletes the session on the server', async () => {
    const anon = await new Client().call('GET', '/api/session');
    expect(anon.status).toBe(200);
    expect(anon.body).toEqual({ user: null });
    const { c } = await newUser('carol@example.com');
    const cookie = c.cookie;
    const noCsrf = await c.call('DELETE', '/api/session', undefined, { csrf: false });
    expect(noCsrf.status).toBe(403);
    const out = await c.call('DELETE', '/api/session');
    expect(out.status).toBe(200);
    expect(out.setCookie).toMatch(/Max-Age=0/);
    // Replaying the old cookie proves the session is gone server-side.
    const replay = await fetch(`${service.url}/api/applications`, { headers: { cookie } });
    expect(replay.status).toBe(401);
  });
});

describe('session and CSRF on every portal route', () => {
  it('answers 401 without a session and 403 without the CSRF token', async () => {
    const anon = new Client();
    for (const [method, path] of [
      ['GET', '/api/applications'],
      ['POST', '/api/applications'],
      ['GET', '/api/applications/1'],
      ['GET', '/api/organizations'],
      ['POST', '/api/organizations'],
      ['PUT', '/api/session/acting'],
    ] as const) {
      const res = await anon.call(method, path, method === 'GET' ? undefined : {});
      expect(res.status, `${method} ${path}`).toBe(401);
      expect(res.body.error).toBe('unauthorized');
    }
    const { c } = await newUser('dave@example.com');
    const res = await c.call('POST', '/api/applications', APP, { csrf: false });
    expect(res.status).toBe(403);
    expect(res.body.error_description).toMatch(/CSRF/);
    const wrong = await fetch(`${service.url}/api/organizations`, {
      method: 'POST',
      headers: { cookie: c.cookie, 'x-csrf-token': 'not-the-token', 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'X' }),
    });
    expect(wrong.status).toBe(403);
  });
});

describe('applications', () => {
  it('validates URLs field by field and shows the secret once', async () => {
    const { c } = await newUser('erin@example.com');
    const bad = await c.call('POST', '/api/applications', { ...APP, url: 'javascript:alert(1)' });
    expect(bad.status).toBe(400);
    expect(bad.body.field).toBe('url');
    const badCb = await c.call('POST', '/api/applications', {
      ...APP,
      callbackUrl: 'ftp://x.example.com/cb',
    });
    expect(badCb.body.field).toBe('callbackUrl');
    const noName = await c.call('POST', '/api/applications', { ...APP, name: ' ' });
    expect(noName.body.field).toBe('name');
    const { application, clientSecret } = await createApp(c);
    expect(clientSecret).toMatch(/^[\w-]{40,}$/);
    const detail = await c.call('GET', `/api/applications/${application.id}`);
    expect(detail.status).toBe(200);
    expect(JSON.stringify(detail.body)).not.toContain(clientSecret);
    expect(detail.body.can).toEqual({ manage: true, authorize: true });
    expect(detail.body.roles.map((r: { name: string }) => r.name)).toEqual(['Provider', 'Purchaser']);
    const list = await c.call('GET', '/api/applications');
    expect(list.body.applications).toEqual([expect.objectContaining({ id: application.id, name: 'Shop' })]);
    const reset = await c.call('POST', `/api/applications/${application.id}/secret`);
    expect(reset.status).toBe(200);
    expect(reset.body.clientSecret).not.toBe(clientSecret);
    const missing = await c.call('GET', '/api/applications/999999');
    expect(missing.status).toBe(404);
    const notId = await c.call('GET', '/api/applications/abc');
    expect(notId.status).toBe(400);
  });

  it('lets only Provider manage, Provider and Purchaser authorize, others nothing (403)', async () => {
    const { c: owner } = await newUser('frank@example.com');
    const { c: buyer, user: buyerUser } = await newUser('grace@example.com');
    const { c: stranger, user: strangerUser } = await newUser('heidi@example.com');
    const { application } = await createApp(owner);
    const id = application.id;
    const detail = (await owner.call('GET', `/api/applications/${id}`)).body;
    const [provider, purchaser] = detail.roles;

    // A stranger can do nothing.
    for (const [method, path, body] of [
      ['PUT', `/api/applications/${id}`, APP],
      ['DELETE', `/api/applications/${id}`, undefined],
      ['POST', `/api/applications/${id}/secret`, undefined],
      ['POST', `/api/applications/${id}/roles`, { name: 'Reader' }],
      ['POST', `/api/applications/${id}/permissions`, { name: 'P', verb: 'GET', path: '/x' }],
      ['POST', `/api/applications/${id}/authorizations`, { user: 'heidi@example.com', roleId: provider.id }],
    ] as const) {
      const res = await stranger.call(method, path, body);
      expect(res.status, `${method} ${path}`).toBe(403);
      expect(res.body.error).toBe('forbidden');
    }
    const seen = await stranger.call('GET', `/api/applications/${id}`);
    expect(seen.body.can).toEqual({ manage: false, authorize: false });
    expect(seen.body.application.clientId).toBeUndefined();

    // Purchaser may authorize but not manage.
    const add = await owner.call('POST', `/api/applications/${id}/authorizations`, {
      user: buyerUser.nickName,
      roleId: purchaser.id,
    });
    expect(add.status).toBe(201);
    expect((await buyer.call('GET', `/api/applications/${id}`)).body.can).toEqual({
      manage: false,
      authorize: true,
    });
    expect((await buyer.call('POST', `/api/applications/${id}/roles`, { name: 'Reader' })).status).toBe(403);
    expect((await buyer.call('POST', `/api/applications/${id}/secret`)).status).toBe(403);
    expect((await buyer.call('DELETE', `/api/applications/${id}`)).status).toBe(403);
    const byBuyer = await buyer.call('POST', `/api/applications/${id}/authorizations`, {
      user: 'heidi@example.com',
      roleId: purchaser.id,
    });
    expect(byBuyer.status).toBe(201);
    const change = await buyer.call('PUT', `/api/applications/${id}/authorizations/user/${strangerUser.id}`, {
      roleId: provider.id,
    });
    expect(change.status).toBe(200);
    // Now Heidi holds Provider (and no longer Purchaser).
    const heidi = (await stranger.call('GET', `/api/applications/${id}`)).body;
    expect(heidi.can).toEqual({ manage: true, authorize: true });
    const mine = heidi.grantees.find(
      (g: { id: number; kind: string }) => g.kind === 'user' && g.id === strangerUser.id,
    );
    expect(mine.roleIds).toEqual([provider.id]);
    const removed = await owner.call(
      'DELETE',
      `/api/applications/${id}/authorizations/user/${strangerUser.id}`,
    );
    expect(removed.status).toBe(200);
    expect((await stranger.call('POST', `/api/applications/${id}/secret`)).status).toBe(403);
  });

  it('validates authorizations, roles, permissions and switches', async () => {
    const { c } = await newUser('ivan@example.com');
    const { application } = await createApp(c);
    const id = application.id;
    const unknown = await c.call('POST', `/api/applications/${id}/authorizations`, {
      user: 'nobody@example.com',
      roleId: 1,
    });
    expect(unknown.status).toBe(400);
    const detail = (await c.call('GET', `/api/applications/${id}`)).body;
    const badRole = await c.call('POST', `/api/applications/${id}/authorizations`, {
      user: 'ivan@example.com',
      roleId: 99999,
    });
    expect(badRole.status).toBe(400);
    expect(badRole.body.field).toBe('roleId');
    const noUser = await c.call('POST', `/api/applications/${id}/authorizations`, {
      user: 'nobody@example.com',
      roleId: detail.roles[1].id,
    });
    expect(noUser.body).toMatchObject({
      field: 'user',
      error_description: 'No user has this email or nickName.',
    });
    const badOrg = await c.call('POST', `/api/applications/${id}/authorizations`, {
      organizationId: 424242,
      roleId: detail.roles[1].id,
    });
    expect(badOrg.body.field).toBe('organizationId');
    expect((await c.call('POST', `/api/applications/${id}/roles`, { name: '' })).body.field).toBe('name');
    const role = (await c.call('POST', `/api/applications/${id}/roles`, { name: 'Reader' })).body.role;
    const badVerb = await c.call('POST', `/api/applications/${id}/permissions`, {
      name: 'P',
      verb: 'TRACE',
      path: '/x',
    });
    expect(badVerb.body.field).toBe('verb');
    const badPath = await c.call('POST', `/api/applications/${id}/permissions`, {
      name: 'P',
      verb: 'GET',
      path: 'x',
    });
    expect(badPath.body.field).toBe('path');
    const perm = (
      await c.call('POST', `/api/applications/${id}/permissions`, {
        name: 'Read',
        description: 'r',
        verb: 'get',
        path: '/items',
      })
    ).body.permission;
    expect(perm).toMatchObject({ verb: 'GET', path: '/items' });
    const path = `/api/applications/${id}/roles/${role.id}/permissions/${perm.id}`;
    expect((await c.call('PUT', path, { on: 'yes' })).body.field).toBe('on');
    expect((await c.call('PUT', path, { on: true })).status).toBe(200);
    expect((await c.call('GET', `/api/applications/${id}`)).body.switches).toEqual({ [role.id]: [perm.id] });
    expect((await c.call('PUT', path, { on: false })).status).toBe(200);
    expect((await c.call('GET', `/api/applications/${id}`)).body.switches).toEqual({});
    const builtIn = await c.call('DELETE', `/api/applications/${id}/roles/${detail.roles[0].id}`);
    expect(builtIn.status).toBe(400);
    const edit = await c.call('PUT', `/api/applications/${id}`, {
      ...APP,
      name: 'Shop 2',
      callbackUrl: 'https://x.example.com/cb#frag',
    });
    expect(edit.body.field).toBe('callbackUrl');
    const ok = await c.call('PUT', `/api/applications/${id}`, { ...APP, name: 'Shop 2' });
    expect(ok.body.application.name).toBe('Shop 2');
    // RP-Initiated Logout 1.0 §3: the post-logout redirect URIs, kept when an edit leaves them out.
    const badLogout = await c.call('PUT', `/api/applications/${id}`, {
      ...APP,
      postLogoutRedirectUris: ['https://x.example.com/bye#frag'],
    });
    expect(badLogout.body.field).toBe('postLogoutRedirectUris');
    const logout = await c.call('PUT', `/api/applications/${id}`, {
      ...APP,
      postLogoutRedirectUris: ['https://x.example.com/bye'],
    });
    expect(logout.body.application.postLogoutRedirectUris).toEqual(['https://x.example.com/bye']);
    const kept = await c.call('PUT', `/api/applications/${id}`, { ...APP, name: 'Shop 3' });
    expect(kept.body.application.postLogoutRedirectUris).toEqual(['https://x.example.com/bye']);
    expect((await c.call('DELETE', `/api/applications/${id}`)).status).toBe(200);
    expect((await c.call('GET', `/api/applications/${id}`)).status).toBe(404);
  });
});

describe('organizations and acting on their behalf', () => {
  it('lets owners manage members, keeps one owner, and lets only members act', async () => {
    const { c: owner } = await newUser('judy@example.com');
    const { c: member, user: memberUser } = await newUser('ken@example.com');
    const { c: outsider } = await newUser('leo@example.com');
    expect((await owner.call('POST', '/api/organizations', { name: '' })).body.field).toBe('name');
    const org = (await owner.call('POST', '/api/organizations', { name: 'Acme', description: 'Tools' })).body
      .organization;
    const me = (await owner.call('GET', '/api/session')).body;
    const badRole = await owner.call('POST', `/api/organizations/${org.id}/members`, {
      user: 'ken@example.com',
      role: 'boss',
    });
    expect(badRole.body.field).toBe('role');
    const add = await owner.call('POST', `/api/organizations/${org.id}/members`, {
      user: 'ken@example.com',
      role: 'member',
    });
    expect(add.status).toBe(201);
    const again = await owner.call('POST', `/api/organizations/${org.id}/members`, {
      user: 'ken@example.com',
      role: 'member',
    });
    expect(again.status).toBe(409);
    // A member sees the organization but cannot manage it; an outsider cannot even see it.
    const seen = await member.call('GET', `/api/organizations/${org.id}`);
    expect(seen.body.can).toEqual({ manageMembers: false });
    expect(seen.body.members).toHaveLength(2);
    expect(
      (
        await member.call('POST', `/api/organizations/${org.id}/members`, {
          user: 'leo@example.com',
          role: 'member',
        })
      ).status,
    ).toBe(403);
    // Refused before the lookup: a non-owner cannot learn whether an address has an account.
    const probe = await member.call('POST', `/api/organizations/${org.id}/members`, {
      user: 'nobody@example.com',
      role: 'member',
    });
    expect(probe.status).toBe(403);
    expect((await member.call('DELETE', `/api/organizations/${org.id}/members/${me.user.id}`)).status).toBe(
      403,
    );
    expect((await outsider.call('GET', `/api/organizations/${org.id}`)).status).toBe(403);
    expect((await outsider.call('PUT', '/api/session/acting', { organizationId: org.id })).status).toBe(403);
    // The last owner cannot step down or leave.
    const demote = await owner.call('PUT', `/api/organizations/${org.id}/members/${me.user.id}`, {
      role: 'member',
    });
    expect(demote.status).toBe(400);
    expect(demote.body.error_description).toMatch(/at least one owner/);
    expect((await owner.call('DELETE', `/api/organizations/${org.id}/members/${me.user.id}`)).status).toBe(
      400,
    );
    // Acting as the organization: new applications belong to it, and its members hold Provider.
    const acting = await member.call('PUT', '/api/session/acting', { organizationId: org.id });
    expect(acting.body.acting).toEqual({ kind: 'org', id: org.id, name: 'Acme' });
    const { application } = await createApp(member, { ...APP, name: 'Acme app' });
    expect(
      (await member.call('GET', '/api/applications')).body.applications.map((a: { name: string }) => a.name),
    ).toEqual(['Acme app']);
    expect((await owner.call('GET', `/api/applications/${application.id}`)).body.can.manage).toBe(true);
    expect((await outsider.call('POST', `/api/applications/${application.id}/secret`)).status).toBe(403);
    const back = await member.call('PUT', '/api/session/acting', { organizationId: null });
    expect(back.body.acting).toEqual({ kind: 'user', id: memberUser.id });
    expect((await member.call('GET', '/api/applications')).body.applications).toEqual([]);
    // Removing the member ends their access through the organization.
    expect((await owner.call('DELETE', `/api/organizations/${org.id}/members/${memberUser.id}`)).status).toBe(
      200,
    );
    expect((await member.call('POST', `/api/applications/${application.id}/secret`)).status).toBe(403);
  });
});

describe('logo upload', () => {
  let c: Client;
  let appId: number;
  beforeAll(async () => {
    ({ c } = await newUser('logo@example.com'));
    appId = (await createApp(c)).application.id;
  });

  it('crops, resizes to a 256x256 PNG without metadata and serves it from /logos/', async () => {
    const source = await sharp({ create: { width: 400, height: 300, channels: 3, background: '#3366cc' } })
      .withMetadata({ exif: { IFD0: { Copyright: 'secret-maker' } } })
      .jpeg()
      .toBuffer();
    const res = await c.call(
      'POST',
      `/api/applications/${appId}/logo?x=50&y=20&width=200&height=200`,
      undefined,
      {
        raw: source,
        type: 'image/jpeg',
      },
    );
    expect(res.status).toBe(200);
    expect(res.body.logoUrl).toMatch(new RegExp(`^/logos/${appId}-[\\w-]+\\.png$`));
    const img = await fetch(`${service.url}${res.body.logoUrl}`);
    expect(img.status).toBe(200);
    const bytes = Buffer.from(await img.arrayBuffer());
    const meta = await sharp(bytes).metadata();
    expect(meta).toMatchObject({ format: 'png', width: 256, height: 256 });
    expect(meta.exif).toBeUndefined();
    expect(bytes.includes(Buffer.from('secret-maker'))).toBe(false);
    const detail = await c.call('GET', `/api/applications/${appId}`);
    expect(detail.body.application.logoUrl).toBe(res.body.logoUrl);
    // A new logo gets a new URL; the replaced one is gone from the bucket.
    const again = await c.call('POST', `/api/applications/${appId}/logo`, undefined, { raw: source });
    expect(again.status).toBe(200);
    expect(again.body.logoUrl).not.toBe(res.body.logoUrl);
    expect((await fetch(`${service.url}${again.body.logoUrl}`)).status).toBe(200);
    expect((await fetch(`${service.url}${res.body.logoUrl}`)).status).toBe(404);
  });

  it('refuses an SVG, a renamed text file, a decompression bomb and a crop outside the image', async () => {
    const svg = Buffer.from(
      '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><rect width="10" height="10"/></svg>',
    );
    const svgRes = await c.call('POST', `/api/applications/${appId}/logo`, undefined, {
      raw: svg,
      type: 'image/svg+xml',
    });
    expect(svgRes.status).toBe(400);
    expect(svgRes.body.error_description).toMatch(/not a PNG, JPEG, WebP or GIF/);
    const text = Buffer.from('hello, I am really a text file named logo.png\n');
    const textRes = await c.call('POST', `/api/applications/${appId}/logo`, undefined, {
      raw: text,
      type: 'image/png',
    });
    expect(textRes.status).toBe(400);
    expect(textRes.body.field).toBe('logo');
    const bombRes = await c.call('POST', `/api/applications/${appId}/logo`, undefined, {
      raw: bombPng(20000, 20000),
    });
    expect(bombRes.status).toBe(400);
    expect(bombRes.body.error_description).toMatch(/too large|could not be read/);
    const small = await sharp({ create: { width: 100, height: 100, channels: 3, background: '#fff' } })
      .png()
      .toBuffer();
    const outside = await c.call(
      'POST',
      `/api/applications/${appId}/logo?x=50&y=50&width=80&height=80`,
      undefined,
      {
        raw: small,
      },
    );
    expect(outside.status).toBe(400);
    expect(outside.body.field).toBe('crop');
    const partial = await c.call('POST', `/api/applications/${appId}/logo?x=1`, undefined, { raw: small });
    expect(partial.body.field).toBe('crop');
    const big = Buffer.concat([small, Buffer.alloc(5 * 1024 * 1024)]);
    const tooBig = await c.call('POST', `/api/applications/${appId}/logo`, undefined, { raw: big });
    expect(tooBig.status).toBe(400);
    expect(tooBig.body.error_description).toMatch(/5 MB/);
    const { c: other } = await newUser('logo-other@example.com');
    expect(
      (await other.call('POST', `/api/applications/${appId}/logo`, undefined, { raw: small })).status,
    ).toBe(403);
  });
});

/** A tiny, valid PNG whose header declares a huge canvas of zero bytes (compresses to almost nothing). */
function bombPng(width: number, height: number): Buffer {
  const crcTable = Array.from({ length: 256 }, (_, n) => {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    return c >>> 0;
  });
  const crc = (buf: Buffer) => {
    let c = 0xffffffff;
    for (const b of buf) c = crcTable[(c ^ b) & 0xff]! ^ (c >>> 8);
    return (c ^ 0xffffffff) >>> 0;
  };
  const chunk = (type: string, data: Buffer) => {
    const len = Buffer.alloc(4);
    len.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const sum = Buffer.alloc(4);
    sum.writeUInt32BE(crc(body));
    return Buffer.concat([len, body, sum]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 0; // greyscale
  // A few rows of zeros; a decoder trusting the header would allocate width×height pixels.
  const idat = deflateSync(Buffer.alloc((width + 1) * 16));
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', idat),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

describe('the sign-in return path', () => {
  it('follows only same-origin paths', async () => {
    const { safeReturn } = await import('../portal/src/return-path.js');
    expect(safeReturn('/oauth2/authorize?client_id=a&state=b')).toBe('/oauth2/authorize?client_id=a&state=b');
    expect(safeReturn('/applications/3')).toBe('/applications/3');
    for (const bad of [
      '//evil.example',
      '/\\evil.example',
      'https://evil.example',
      'evil',
      '',
      null,
      '/a\\b',
      '/a\nb',
    ]) {
      expect(safeReturn(bad), String(bad)).toBe('/');
    }
  });
});
