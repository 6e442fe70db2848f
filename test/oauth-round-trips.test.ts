import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { idTokenClaims, signJwt } from '../shared/oidc/id-token.js';
import { authorize } from '../shared/store/authorizations.js';
import { db } from '../shared/store/db.js';
import { countDynamoDb, type DynamoDbCounter } from '../shared/store/metrics.js';
import { createOrganization } from '../shared/store/organizations.js';
import { roleCatalogue } from '../shared/store/roles.js';
import { addTrusted } from '../shared/store/trusted.js';
import { createUser, type User } from '../shared/store/users.js';
import {
  authorizeLocation,
  basic,
  CALLBACK,
  newApp,
  newUser,
  PASSWORD,
  postForm,
  type Registered,
  signedIn,
} from './support/oauth.js';
import { startService, type TestService } from './support/service.js';

/**
 * The round-trip budget of docs/data-model.md, measured: the handlers run in this process, so the
 * work counter on their DynamoDB client sees every call. "Round trips" are sequential waves of
 * calls (calls in flight together count once). The table is filled with other users first: no
 * figure may depend on its size.
 */
let service: TestService;
let counter: DynamoDbCounter;
let alice: User;
let reg: Registered;

beforeAll(async () => {
  service = await startService();
  alice = await newUser(service.db, 'alice');
  reg = await newApp(service.db, alice.id);
  const roleId = (await roleCatalogue(service.db, reg.app.id)).roles[1]!.id;
  for (let i = 0; i < 100; i++) {
    const u = await createUser(service.db, {
      email: `filler${i}@example.com`,
      nickName: `filler${i}`,
      displayName: 'F',
      passwordHash: 'x',
    });
    await authorize(service.db, reg.app.id, { kind: 'user', id: u.id }, roleId);
  }
  counter = countDynamoDb(db().doc);
});
afterAll(async () => {
  counter?.stop();
  await service.close();
});

async function measure(request: () => Promise<Response>, expectStatus: number) {
  counter.reset();
  const res = await request();
  expect(res.status).toBe(expectStatus);
  const work = counter.read();
  expect(work.byCommand.Scan).toBeUndefined();
  return { res, work };
}

const token = (form: Record<string, string>) =>
  postForm(`${service.url}/oauth2/token`, form, { authorization: basic(reg.app.clientId, reg.secret) });

describe('token endpoint: at most 3 sequential round trips per grant', () => {
  it('password: BatchGet(client, login, guard) → Query MFA# (while bcrypt runs) → TransactWrite', async () => {
    const { work } = await measure(
      () => token({ grant_type: 'password', username: alice.email, password: PASSWORD }),
      200,
    );
    // The second-factor read (two-factor accounts are refused this grant) overlaps the bcrypt
    // check, so it adds a round trip to the count but no latency.
    expect(work.roundTrips).toBe(3);
  });

  it('client_credentials: BatchGet(client) → Put', async () => {
    const { work } = await measure(() => token({ grant_type: 'client_credentials' }), 200);
    expect(work.roundTrips).toBe(2);
  });

  it('authorization_code: BatchGet(client, code) → TransactWrite', async () => {
    const browser = await signedIn(service.db, alice.id);
    const location = await authorizeLocation(
      service.url,
      { response_type: 'code', client_id: reg.app.clientId, redirect_uri: CALLBACK },
      browser,
    );
    const code = location.searchParams.get('code')!;
    const { work } = await measure(
      () => token({ grant_type: 'authorization_code', code, redirect_uri: CALLBACK }),
      200,
    );
    expect(work.roundTrips).toBe(2);
    expect(work.byCommand.TransactWriteItems).toBe(1);
  });

  it('authorization_code with openid: the user is read beside the TransactWrite, no round trip more', async () => {
    const browser = await signedIn(service.db, alice.id);
    const location = await authorizeLocation(
      service.url,
      { response_type: 'code', client_id: reg.app.clientId, redirect_uri: CALLBACK, scope: 'openid email' },
      browser,
    );
    const code = location.searchParams.get('code')!;
    const { res, work } = await measure(
      () => token({ grant_type: 'authorization_code', code, redirect_uri: CALLBACK }),
      200,
    );
    expect(((await res.json()) as { id_token?: string }).id_token).toEqual(expect.any(String));
    expect(work.roundTrips).toBe(2);
    expect(work.byCommand.TransactWriteItems).toBe(1);
    expect(work.byCommand).toEqual({
      BatchGetItem: 1,
      TransactWriteItems: 1,
      GetItem: 1, // USER#<id>/PROFILE, in parallel with the write
    });
  });

  it('refresh_token: BatchGet(client, token) → TransactWrite', async () => {
    const first = (await (
      await token({ grant_type: 'password', username: alice.email, password: PASSWORD })
    ).json()) as {
      refresh_token: string;
    };
    const { work } = await measure(
      () => token({ grant_type: 'refresh_token', refresh_token: first.refresh_token }),
      200,
    );
    expect(work.roundTrips).toBe(2);
  });
});

describe('lookups', () => {
  let access: string;
  beforeAll(async () => {
    access = (
      (await (await token({ grant_type: 'password', username: alice.email, password: PASSWORD })).json()) as {
        access_token: string;
      }
    ).access_token;
  });

  it('GET /user for a user in no organization: BatchGet(token, catalogue) ‖ Query USER#, with or without a decision', async () => {
    const plain = await measure(() => fetch(`${service.url}/user?access_token=${access}`), 200);
    expect(plain.work.roundTrips).toBe(1);
    expect(plain.work.calls).toBe(2);
    const decision = await measure(
      () => fetch(`${service.url}/user?access_token=${access}&action=GET&resource=/x`),
      200,
    );
    expect(decision.work.roundTrips).toBe(1);
    expect(decision.work.calls).toBe(2);
  });

  it('GET /user as the PEP proxy asks (app_id + decision): the app_id client joins the first BatchGet', async () => {
    const own = await measure(
      () =>
        fetch(`${service.url}/user?access_token=${access}&app_id=${reg.app.clientId}&action=GET&resource=/x`),
      200,
    );
    expect(own.work.roundTrips).toBe(1);
    expect(own.work.calls).toBe(2);
    // A token of an application app_id trusts: that application's roles are read on top.
    const guarded = await newApp(service.db, alice.id, { name: 'Guarded' });
    expect(await addTrusted(service.db, guarded.app.clientId, reg.app.clientId)).toBe(true);
    const trusted = await measure(
      () =>
        fetch(
          `${service.url}/user?access_token=${access}&app_id=${guarded.app.clientId}&action=GET&resource=/x`,
        ),
      200,
    );
    expect(trusted.work.roundTrips).toBe(2);
    const untrusted = await newApp(service.db, alice.id, { name: 'Untrusting' });
    const refused = await measure(
      () => fetch(`${service.url}/user?access_token=${access}&app_id=${untrusted.app.clientId}`),
      401,
    );
    expect(refused.work.roundTrips).toBe(1);
  });

  it('GET /user for a member of organizations: 2 round trips, and no more reading as other organizations join the app', async () => {
    const bob = await newUser(service.db, 'bob');
    const [, purchaser] = (await roleCatalogue(service.db, reg.app.id)).roles;
    const team = await createOrganization(service.db, { name: 'Team', description: '', ownerUserId: bob.id });
    await authorize(service.db, reg.app.id, { kind: 'org', id: team.id }, purchaser!.id);
    const bobToken = (
      (await (await token({ grant_type: 'password', username: bob.email, password: PASSWORD })).json()) as {
        access_token: string;
      }
    ).access_token;
    const lookup = () => fetch(`${service.url}/user?access_token=${bobToken}`);

    const before = await measure(lookup, 200);
    // BatchGet(token, catalogue) ‖ Query USER# → BatchGet the team's roles in the app.
    expect(before.work.roundTrips).toBe(2);
    expect(before.work.calls).toBe(3);
    expect(await before.res.json()).toMatchObject({
      organizations: [{ id: team.id, name: 'Team', roles: [{ id: purchaser!.id, name: 'Purchaser' }] }],
    });

    // 60 organizations Bob is not in get roles in the same application.
    const carol = await newUser(service.db, 'carol');
    for (let i = 0; i < 60; i++) {
      const other = await createOrganization(service.db, {
        name: `Other organization with a long enough name ${i}`,
        description: '',
        ownerUserId: carol.id,
      });
      await authorize(service.db, reg.app.id, { kind: 'org', id: other.id }, purchaser!.id);
    }
    const after = await measure(lookup, 200);
    expect(after.work.roundTrips).toBe(2);
    expect(after.work.calls).toBe(before.work.calls);
    expect(after.work.readUnits).toBe(before.work.readUnits);
  });

  it('GET /users/{id}: the token, the user and the catalogue in one round trip', async () => {
    const { work } = await measure(
      () => fetch(`${service.url}/users/${alice.id}?access_token=${access}`),
      200,
    );
    expect(work.roundTrips).toBe(1);
    expect(work.calls).toBe(2);
  });

  it('GET /user costs 2 round trips and 3 calls for a member of 1, 20 or 100 organizations, and one call per 100 more', async () => {
    const dave = await newUser(service.db, 'dave');
    const [provider, purchaser] = (await roleCatalogue(service.db, reg.app.id)).roles;
    const daveToken = async () =>
      (
        (await (
          await token({ grant_type: 'password', username: dave.email, password: PASSWORD })
        ).json()) as {
          access_token: string;
        }
      ).access_token;
    const figures: Record<number, { roundTrips: number; calls: number; readUnits: number }> = {};
    let joined = 0;
    for (const target of [1, 20, 100, 200]) {
      for (; joined < target; joined++) {
        const org = await createOrganization(service.db, {
          name: `Dave's organization ${joined}`,
          description: '',
          ownerUserId: dave.id,
        });
        // Alternate the role, so the answer carries both and each organization's own.
        const role = joined % 2 === 0 ? purchaser! : provider!;
        await authorize(service.db, reg.app.id, { kind: 'org', id: org.id }, role.id);
      }
      const access = await daveToken();
      const { res, work } = await measure(
        () => fetch(`${service.url}/user?access_token=${access}&action=GET&resource=/x`),
        200,
      );
      const body = (await res.json()) as { organizations: { roles: { name: string }[] }[] };
      expect(body.organizations).toHaveLength(target);
      expect(body.organizations.every((o) => o.roles.length === 1)).toBe(true);
      figures[target] = work;
    }
    for (const target of [1, 20, 100]) {
      expect(figures[target]).toMatchObject({ roundTrips: 2, calls: 3 });
    }
    // DynamoDB's BatchGetItem takes 100 keys: the second hundred is one more call, in the same round trip.
    expect(figures[200]).toMatchObject({ roundTrips: 2, calls: 4 });
    // Read units follow the answer: more organizations listed, more units; never the application's size.
    expect(figures[20]!.readUnits).toBeGreaterThan(figures[1]!.readUnits);
  });

  it('GET /applications.json: GetItem token ‖ BatchGet actor → Query → BatchGet apps', async () => {
    const { work } = await measure(
      () => fetch(`${service.url}/applications.json?actor_id=${alice.actorId}&access_token=${access}`),
      200,
    );
    expect(work.roundTrips).toBe(3);
  });
});

describe('authorize and revoke', () => {
  it('GET /oauth2/authorize, already approved: GetItem client ‖ GetItem session → BatchGet → Put code', async () => {
    const browser = await signedIn(service.db, alice.id);
    const params = new URLSearchParams({
      response_type: 'code',
      client_id: reg.app.clientId,
      redirect_uri: CALLBACK,
    });
    await authorizeLocation(service.url, Object.fromEntries(params), browser); // approve once
    const { work } = await measure(
      () =>
        fetch(`${service.url}/oauth2/authorize?${params}`, {
          redirect: 'manual',
          headers: { cookie: browser.cookie },
        }),
      302,
    );
    expect(work.roundTrips).toBe(3);
  });

  it('POST /oauth2/authorize (Allow): GetItem session ‖ GetItem client → Put consent ‖ Put code', async () => {
    const fresh = await newUser(service.db, 'fresh');
    const browser = await signedIn(service.db, fresh.id);
    const params = { response_type: 'code', client_id: reg.app.clientId, redirect_uri: CALLBACK };
    const { res, work } = await measure(
      () =>
        fetch(`${service.url}/oauth2/authorize`, {
          method: 'POST',
          redirect: 'manual',
          headers: { cookie: browser.cookie, 'content-type': 'application/x-www-form-urlencoded' },
          body: new URLSearchParams({ ...params, csrf_token: browser.csrf, decision: 'allow' }).toString(),
        }),
      302,
    );
    expect(new URL(res.headers.get('location')!).searchParams.get('code')).toBeTruthy();
    expect(work.roundTrips).toBe(2);
  });

  it('POST /oauth2/revoke: access token 2, refresh token 3 (chain query)', async () => {
    const t = (await (
      await token({ grant_type: 'password', username: alice.email, password: PASSWORD })
    ).json()) as {
      access_token: string;
      refresh_token: string;
    };
    const revoke = (value: string) =>
      postForm(
        `${service.url}/oauth2/revoke`,
        { token: value },
        { authorization: basic(reg.app.clientId, reg.secret) },
      );
    expect((await measure(() => revoke(t.access_token), 200)).work.roundTrips).toBe(2);
    expect((await measure(() => revoke(t.refresh_token), 200)).work.roundTrips).toBe(3);
  });

  it('JWT access tokens: client credentials 1 call, no write; revoke BatchGet → Put JTI#; introspect 1 BatchGet', async () => {
    const jwtApp = await newApp(service.db, alice.id, { accessTokenFormat: 'jwt' });
    const auth = { authorization: basic(jwtApp.app.clientId, jwtApp.secret) };
    const { res, work } = await measure(
      () => postForm(`${service.url}/oauth2/token`, { grant_type: 'client_credentials' }, auth),
      200,
    );
    expect(work.byCommand).toEqual({ BatchGetItem: 1 });
    const jwt = ((await res.json()) as { access_token: string }).access_token;
    const revoked = await measure(() => postForm(`${service.url}/oauth2/revoke`, { token: jwt }, auth), 200);
    expect(revoked.work.roundTrips).toBe(2);
    expect(revoked.work.byCommand).toEqual({ BatchGetItem: 1, PutItem: 1 });
    const seen = await measure(() => postForm(`${service.url}/oauth2/introspect`, { token: jwt }, auth), 200);
    expect(await seen.res.json()).toEqual({ active: false });
    expect(seen.work.byCommand).toEqual({ BatchGetItem: 1 });
  });
});

describe('RP-initiated logout', () => {
  it('GET /oauth2/logout with a valid hint: GetItem session ‖ GetItem client → DeleteItem session', async () => {
    const rp = await newApp(service.db, alice.id, { postLogoutRedirectUris: ['https://rp.example/bye'] });
    const browser = await signedIn(service.db, alice.id);
    const idToken = await signJwt(
      idTokenClaims({
        issuer: service.url,
        clientId: rp.app.clientId,
        subject: String(alice.id),
        lifetime: 600,
      }),
    );
    const query = new URLSearchParams({
      id_token_hint: idToken,
      post_logout_redirect_uri: 'https://rp.example/bye',
    });
    const { work } = await measure(
      () =>
        fetch(`${service.url}/oauth2/logout?${query}`, {
          redirect: 'manual',
          headers: { cookie: browser.cookie },
        }),
      302,
    );
    expect(work.roundTrips).toBe(2);
    expect(work.byCommand).toEqual({ GetItem: 2, DeleteItem: 1 });
  });
});
