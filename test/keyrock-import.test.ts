import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { importedIds } from '../shared/store/aliases.js';
import { getMembership, getOrganization, membersOfOrganization } from '../shared/store/organizations.js';
import { totals } from '../shared/store/stats.js';
import { getLogin, getUser } from '../shared/store/users.js';
import { runIdm } from './support/cli.js';
import { APP_SCHEMA, keyrockPassword, USER_SCHEMA } from './support/keyrock-schema.js';
import { type MariaDb, startMariaDb } from './support/mariadb.js';
import { basic, newApp, newUser, postForm, type Registered } from './support/oauth.js';
import { startService, type TestService } from './support/service.js';

/**
 * `idm import keyrock` against a real MariaDB holding Keyrock's tables (columns as Keyrock's
 * migrations create them), run as an operator runs it (bin/idm.mjs), into the table the local
 * server serves: moved users sign in with their Keyrock passwords.
 */
let maria: MariaDb;
let service: TestService;
let app: Registered;
let env: NodeJS.ProcessEnv;

const idm = (...args: string[]) => runIdm(env, args);

const ALICE = 'aaaaaaaa-0000-4000-8000-000000000001';
const BOB = 'bbbbbbbb-0000-4000-8000-000000000002';
const DISABLED = 'cccccccc-0000-4000-8000-000000000003';
const NOPASS = 'dddddddd-0000-4000-8000-000000000004';
const CAROL = 'eeeeeeee-0000-4000-8000-000000000005';
const ORG = '11111111-0000-4000-8000-00000000000a';
const ORPHAN = '22222222-0000-4000-8000-00000000000b';

async function keyrockDatabase(name: string): Promise<void> {
  await maria.query(`CREATE DATABASE \`${name}\``);
  await maria.query(`USE \`${name}\`; ${USER_SCHEMA} ${APP_SCHEMA}`);
  const user = (id: string, email: string, username: string, salt: string, password: string, extra = {}) =>
    maria.query(`INSERT INTO \`${name}\`.user SET ?`, [
      {
        id,
        email,
        username,
        salt,
        password: password ? keyrockPassword(salt, password) : '',
        enabled: 1,
        date_password: new Date('2021-03-04T05:06:07Z'),
        ...extra,
      },
    ]);
  await user(ALICE, 'alice-the-admin@test.com', 'Alice', 'a1b2c3d4e5f60718', 'alice-pass', {
    admin: 1,
    description: 'x'.repeat(1200),
    website: 'not a url',
  });
  await user(BOB, 'bob@test.com', 'Bob', '0f1e2d3c4b5a6978', 'bob-pass');
  await user(DISABLED, 'dave@test.com', 'Dave', '1111222233334444', 'dave-pass', { enabled: 0 });
  await user(NOPASS, 'erin@test.com', 'Erin', '', '');
  await maria.query(
    `INSERT INTO \`${name}\`.organization (id, name, description, website) VALUES (?, 'Labs', ?, 'https://labs.example.org'), (?, 'Nobody', '', NULL)`,
    [ORG, `The labs. ${'y'.repeat(600)}`, ORPHAN],
  );
  await maria.query(
    `INSERT INTO \`${name}\`.user_organization (role, user_id, organization_id) VALUES ('member', ?, ?), ('owner', ?, ?), ('owner', ?, ?)`,
    [BOB, ORG, ALICE, ORG, NOPASS, ORPHAN],
  );
}

const passwordGrant = (email: string, password: string) =>
  postForm(
    `${service.url}/oauth2/token`,
    { grant_type: 'password', username: email, password },
    { authorization: basic(app.app.clientId, app.secret) },
  );

beforeAll(async () => {
  [maria, service] = await Promise.all([startMariaDb(), startService()]);
  const owner = await newUser(service.db, 'owner');
  app = await newApp(service.db, owner.id, { grantTypes: ['password'] });
  env = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    IDM_TABLE_NAME: service.db.table,
    IDM_DYNAMODB_ENDPOINT: inject('dynamodbEndpoint'),
    IDM_BCRYPT_COST: '4',
    AWS_REGION: 'us-east-1',
    AWS_ACCESS_KEY_ID: 'local',
    AWS_SECRET_ACCESS_KEY: 'local',
    AWS_EC2_METADATA_DISABLED: 'true',
    DATA_DIR: mkdtempSync(join(tmpdir(), 'gatehouse-import-')),
  };
  await keyrockDatabase('idm');
}, 120_000);

afterAll(async () => {
  await Promise.all([maria?.stop(), service?.close()]);
});

describe('idm import keyrock', () => {
  it('reports what it would write with --dry-run, and writes nothing', async () => {
    const before = await totals(service.db);
    const run = await idm('import', 'keyrock', '--from', maria.url('idm'), '--dry-run');
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const summary = JSON.parse(run.stdout);
    expect(summary).toMatchObject({
      dryRun: true,
      users: { read: 4, written: 3, skipped: 1 },
      organizations: { read: 2, written: 1, skipped: 1 },
    });
    expect(await totals(service.db)).toEqual(before);
    expect((await importedIds(service.db, 'user', [ALICE, BOB])).size).toBe(0);
  });

  it('moves users, organizations and memberships, and says why it skipped each record', async () => {
    const before = await totals(service.db);
    const run = await idm('import', 'keyrock', '--from', maria.url('idm'));
    expect(run.code).toBe(0);
    const summary = JSON.parse(run.stdout);
    expect(summary).toMatchObject({
      source: `mysql://root@127.0.0.1:${maria.port}/idm`,
      dryRun: false,
      users: { read: 4, written: 3, skipped: 1 },
      organizations: { read: 2, written: 1, skipped: 1 },
      memberships: { read: 3, written: 1 },
    });
    expect(summary.skipped).toEqual(
      expect.arrayContaining([
        { table: 'user', id: NOPASS, reason: expect.stringContaining('no password') },
        { table: 'organization', id: ORPHAN, reason: 'none of its owners was imported' },
      ]),
    );
    expect(summary.notes).toEqual(
      expect.arrayContaining([
        { table: 'user', id: ALICE, note: 'description cut to 1000 characters' },
        { table: 'user', id: ALICE, note: 'website left out: not an http(s) URL' },
        { table: 'organization', id: ORG, note: 'description cut to 500 characters' },
      ]),
    );
    expect(summary.notCarriedOver.join(' ')).toMatch(/refresh tokens/);
    expect(await totals(service.db)).toEqual({
      users: before.users + 3,
      organizations: before.organizations + 1,
    });

    const ids = await importedIds(service.db, 'user', [ALICE, BOB]);
    const alice = await getUser(service.db, ids.get(ALICE)!);
    expect(alice).toMatchObject({
      email: 'alice-the-admin@test.com',
      displayName: 'Alice',
      admin: true,
      keyrockId: ALICE,
      datePassword: '2021-03-04T05:06:07.000Z',
    });
    const orgId = (await importedIds(service.db, 'organization', [ORG])).get(ORG)!;
    const labs = await getOrganization(service.db, orgId);
    expect(labs).toMatchObject({ name: 'Labs', website: 'https://labs.example.org', keyrockId: ORG });
    expect(labs?.description).toMatch(/^The labs\. y+$/);
    expect(labs?.description).toHaveLength(500);
    expect((await getMembership(service.db, orgId, ids.get(ALICE)!))?.role).toBe('owner');
    expect((await getMembership(service.db, orgId, ids.get(BOB)!))?.role).toBe('member');
    expect(await membersOfOrganization(service.db, orgId)).toHaveLength(2);
  });

  it('moves an account Keyrock had not enabled as disabled, until an administrator enables it', async () => {
    const dave = (await importedIds(service.db, 'user', [DISABLED])).get(DISABLED)!;
    expect(await getUser(service.db, dave)).toMatchObject({ email: 'dave@test.com', enabled: false });
    const refused = await passwordGrant('dave@test.com', 'dave-pass');
    expect(refused.status).toBe(400);
    expect(((await refused.json()) as { error: string }).error).toBe('invalid_grant');

    const signIn = await fetch(`${service.url}/v1/auth/tokens`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'alice-the-admin@test.com', password: 'alice-pass' }),
    });
    expect(signIn.status).toBe(201);
    const enable = await fetch(`${service.url}/v1/users/${DISABLED}`, {
      method: 'PATCH',
      headers: { 'content-type': 'application/json', 'x-auth-token': signIn.headers.get('x-subject-token')! },
      body: JSON.stringify({ user: { enabled: true } }),
    });
    expect(enable.status).toBe(200);
    expect((await passwordGrant('dave@test.com', 'dave-pass')).status).toBe(200);
  });

  it('lets a moved user sign in with the Keyrock password, which then becomes bcrypt', async () => {
    expect((await getLogin(service.db, 'bob@test.com'))?.passwordHash).toMatch(/^keyrock-hmac-sha1\$/);
    expect((await passwordGrant('bob@test.com', 'wrong')).status).toBe(400);
    expect((await passwordGrant('bob@test.com', 'bob-pass')).status).toBe(200);
    expect((await getLogin(service.db, 'bob@test.com'))?.passwordHash).toMatch(/^\$2[aby]\$/);
  });

  it('keeps the ids Keyrock gave: GET /user and /v1 answer with them, and /v1 paths take them', async () => {
    const grant = await passwordGrant('bob@test.com', 'bob-pass');
    const { access_token } = (await grant.json()) as { access_token: string };
    const user = await fetch(`${service.url}/user?access_token=${encodeURIComponent(access_token)}`);
    expect(user.status).toBe(200);
    expect(await user.json()).toMatchObject({
      id: BOB,
      email: 'bob@test.com',
      organizations: [{ id: ORG, name: 'Labs', roles: [] }],
    });

    const signIn = await fetch(`${service.url}/v1/auth/tokens`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'alice-the-admin@test.com', password: 'alice-pass' }),
    });
    expect(signIn.status).toBe(201);
    const token = signIn.headers.get('x-subject-token')!;
    const byKeyrockId = await fetch(`${service.url}/v1/users/${BOB}`, { headers: { 'x-auth-token': token } });
    expect(byKeyrockId.status).toBe(200);
    expect(await byKeyrockId.json()).toMatchObject({
      user: { id: BOB, username: 'Bob', email: 'bob@test.com' },
    });
    const unknown = await fetch(`${service.url}/v1/users/00000000-0000-4000-8000-00000000dead`, {
      headers: { 'x-auth-token': token },
    });
    expect(unknown.status).toBe(404);
    expect((await unknown.json()).error).toMatchObject({ code: 404 });
  });

  it('writes nothing twice when run again, and picks up what was added since (a resumed run)', async () => {
    await maria.query('INSERT INTO idm.user SET ?', [
      {
        id: CAROL,
        email: 'carol@test.com',
        username: 'Carol',
        salt: 's4lt',
        password: keyrockPassword('s4lt', 'carol-pass'),
        enabled: 1,
      },
    ]);
    const before = await totals(service.db);
    const run = await idm('import', 'keyrock', '--from', maria.url('idm'));
    expect(run.code).toBe(0);
    const summary = JSON.parse(run.stdout);
    expect(summary.users).toEqual({ read: 5, written: 1, skipped: 4 });
    expect(summary.organizations).toEqual({ read: 2, written: 0, skipped: 2 });
    expect(summary.memberships.written).toBe(0);
    expect(summary.skipped).toEqual(
      expect.arrayContaining([{ table: 'user', id: ALICE, reason: 'imported before' }]),
    );
    expect(await totals(service.db)).toEqual({
      users: before.users + 1,
      organizations: before.organizations,
    });
    expect((await passwordGrant('carol@test.com', 'carol-pass')).status).toBe(200);
  });

  it('skips a Keyrock user whose email a Gatehouse account already has, instead of merging them', async () => {
    await maria.query('INSERT INTO idm.user SET ?', [
      {
        id: 'ffffffff-0000-4000-8000-000000000006',
        email: (await newUser(service.db, 'taken')).email,
        username: 'Taken',
        salt: 's',
        password: keyrockPassword('s', 'x'),
        enabled: 1,
      },
    ]);
    const summary = JSON.parse((await idm('import', 'keyrock', '--from', maria.url('idm'))).stdout);
    expect(summary.skipped).toEqual(
      expect.arrayContaining([
        {
          table: 'user',
          id: 'ffffffff-0000-4000-8000-000000000006',
          reason: 'a Gatehouse account already has this email',
        },
      ]),
    );
  });

  it('fails in one line with exit 1 when the database cannot be reached or is not Keyrock’s', async () => {
    const unreachable = await idm('import', 'keyrock', '--from', `mysql://root:secret@127.0.0.1:1/idm`);
    expect(unreachable.code).toBe(1);
    expect(unreachable.stdout).toBe('');
    expect(unreachable.stderr.trimEnd().split('\n')).toHaveLength(1);
    expect(unreachable.stderr).toMatch(
      /^idm: ImportSourceError: cannot read mysql:\/\/root@127\.0\.0\.1:1\/idm/,
    );
    // The password never appears in a message.
    expect(unreachable.stderr).not.toContain('secret');

    await maria.query(
      'CREATE DATABASE other; CREATE TABLE other.user (id VARCHAR(36) PRIMARY KEY, email VARCHAR(255))',
    );
    const wrong = await idm('import', 'keyrock', '--from', maria.url('other'));
    expect(wrong.code).toBe(1);
    expect(wrong.stderr).toMatch(/is not a Keyrock 7\/8 database: table user lacks username, password, salt/);

    const notUrl = await idm('import', 'keyrock', '--from', 'idm.example.com');
    expect(notUrl.code).toBe(1);
    expect(notUrl.stderr).toMatch(/--from must be a URL/);
  });

  it('refuses to write into a deployed table without the stack’s at-rest key, before reading anything', async () => {
    // A deployed table: no DynamoDB endpoint of our own. Nothing is contacted before the refusal.
    const { IDM_DYNAMODB_ENDPOINT: _local, ...deployed } = env;
    const run = await runIdm(deployed, ['import', 'keyrock', '--from', maria.url('idm')]);
    expect(run.code).toBe(1);
    expect(run.stdout).toBe('');
    expect(run.stderr.trimEnd().split('\n')).toHaveLength(1);
    expect(run.stderr).toMatch(/needs IDM_AT_REST_KEY_SECRET \(the stack output AtRestKeySecretArn\)/);
  });
});
