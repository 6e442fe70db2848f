import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { jwtVerify } from 'jose';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { importedIds } from '../shared/store/aliases.js';
import { getApplication, getClient } from '../shared/store/applications.js';
import { runIdm } from './support/cli.js';
import { APP_SCHEMA, keyrockPassword, USER_SCHEMA } from './support/keyrock-schema.js';
import { type MariaDb, startMariaDb } from './support/mariadb.js';
import { basic, CALLBACK, postForm, signedIn } from './support/oauth.js';
import { startService, type TestService } from './support/service.js';

/**
 * `idm import keyrock` for applications: a Keyrock database with applications, roles,
 * permissions (a pattern among them), role assignments to users and organizations, a consent
 * and an application image, written as Keyrock writes them; then the clients, users and the PEP
 * proxy's `/user` decisions work against Gatehouse with what Keyrock issued.
 */
let maria: MariaDb;
let service: TestService;
let env: NodeJS.ProcessEnv;
let images: string;

const idm = (...args: string[]) => runIdm(env, args);

// Keyrock's ids: UUIDs for users, organizations, applications, roles and permissions.
const ALICE = 'a11ce000-0000-4000-8000-000000000001';
const BOB = 'b0b00000-0000-4000-8000-000000000002';
const CAROL = 'ca401000-0000-4000-8000-000000000003';
const DAVE = 'da7e0000-0000-4000-8000-000000000004';
const LABS = '1ab50000-0000-4000-8000-00000000000a';
const OPS = '0b500000-0000-4000-8000-00000000000b';
const APP = 'app00000-0000-4000-8000-000000000001'.replace('app', 'a9a');
const JWT_APP = 'a9a00000-0000-4000-8000-000000000002';
const SECRET = randomUUID();
const JWT_SECRET_CLIENT = randomUUID();
// Keyrock makes 16 hex characters; its PEP proxies hold the same string as PEP_TOKEN_SECRET.
const KEYROCK_JWT_SECRET = '5a0b6e1c9d2f4a37';
const READER = 'r0000000-0000-4000-8000-000000000001'.replace('r', 'e');
const WRITER = 'e0000000-0000-4000-8000-000000000002';
const AUDITOR = 'e0000000-0000-4000-8000-000000000003';
const P_READ = 'f0000000-0000-4000-8000-000000000001';
const P_ITEM = 'f0000000-0000-4000-8000-000000000002';
const P_WRITE = 'f0000000-0000-4000-8000-000000000003';
const P_XACML = 'f0000000-0000-4000-8000-000000000004';
const P_HEADER = 'f0000000-0000-4000-8000-000000000005';
const IMAGE = 'c0ffee00-0000-4000-8000-000000000001.png';
const PEP = `pep_proxy_${randomUUID()}`;
const IOT = `iot_sensor_${randomUUID()}`;
const PEP_SALT = '0123456789abcdef';
const PEP_PASSWORD = `pep_proxy_${randomUUID()}`;
const IOT_PASSWORD = `iot_sensor_${randomUUID()}`;

async function keyrockDatabase(name: string): Promise<void> {
  await maria.query(`CREATE DATABASE \`${name}\``);
  await maria.query(`USE \`${name}\`; ${USER_SCHEMA} ${APP_SCHEMA}`);
  const insert = (table: string, row: Record<string, unknown>) =>
    maria.query(`INSERT INTO \`${name}\`.\`${table}\` SET ?`, [row]);
  const user = (id: string, email: string, username: string, password: string) => {
    const salt = randomUUID().replace(/-/g, '').slice(0, 16);
    return insert('user', {
      id,
      email,
      username,
      salt,
      password: keyrockPassword(salt, password),
      enabled: 1,
      date_password: new Date('2022-01-02T03:04:05Z'),
    });
  };
  await user(ALICE, 'alice@kr.test', 'Alice', 'alice-pass');
  await user(BOB, 'bob@kr.test', 'Bob', 'bob-pass');
  await user(CAROL, 'carol@kr.test', 'Carol', 'carol-pass');
  await user(DAVE, 'dave@kr.test', 'Dave', 'dave-pass');
  await insert('organization', { id: LABS, name: 'Labs', description: 'Labs' });
  await insert('organization', { id: OPS, name: 'Ops', description: 'Ops' });
  await insert('user_organization', { role: 'owner', user_id: ALICE, organization_id: LABS });
  await insert('user_organization', { role: 'member', user_id: CAROL, organization_id: LABS });
  await insert('user_organization', { role: 'owner', user_id: DAVE, organization_id: OPS });
  await insert('user_organization', { role: 'member', user_id: BOB, organization_id: OPS });

  // What Keyrock's application form stores (controllers/web/applications.js, models/oauth2/oauth_client.js).
  await insert('oauth_client', {
    id: APP,
    name: 'Shop',
    description: 'The shop',
    secret: SECRET,
    url: 'http://localhost:9999',
    redirect_uri: `${CALLBACK},http://localhost:9999/other`,
    redirect_sign_out_uri: 'http://localhost:9999/bye',
    image: IMAGE,
    grant_type: 'client_credentials,password,authorization_code,implicit,refresh_token,hybrid',
    response_type: 'code,token,id_token',
    token_types: 'bearer',
  });
  await insert('oauth_client', {
    id: JWT_APP,
    name: 'Sensors',
    description: 'JWT tokens',
    secret: JWT_SECRET_CLIENT,
    url: 'http://localhost:9998',
    redirect_uri: 'http://localhost:9998/cb',
    image: 'gone.png',
    grant_type: 'client_credentials',
    response_type: '',
    token_types: 'jwt,permanent,bearer',
    jwt_secret: KEYROCK_JWT_SECRET,
  });
  for (const [id, roleName] of [
    [READER, 'Reader'],
    [WRITER, 'Writer'],
    [AUDITOR, 'Auditor'],
  ])
    await insert('role', { id, name: roleName, is_internal: 0, oauth_client_id: APP });
  const permission = (id: string, fields: Record<string, unknown>) =>
    insert('permission', { id, is_internal: 0, oauth_client_id: APP, ...fields });
  await permission(P_READ, { name: 'List things', description: 'd', action: 'GET', resource: '/things' });
  await permission(P_ITEM, {
    name: 'Read a thing',
    action: 'GET',
    resource: '^/things/[0-9]+$',
    is_regex: 1,
  });
  await permission(P_WRITE, { name: 'Add things', action: 'POST', resource: '/things' });
  await permission(P_XACML, { name: 'Advanced', xml: '<Rule RuleId="x" Effect="Permit"/>' });
  await permission(P_HEADER, {
    name: 'Tenant things',
    action: 'DELETE',
    resource: '/things',
    authorization_service_header: 'tenant-a',
    use_authorization_service_header: 1,
  });
  for (const [role, p] of [
    [READER, P_READ],
    [READER, P_ITEM],
    [WRITER, P_WRITE],
    [WRITER, P_HEADER],
    [AUDITOR, P_READ],
    [READER, '2'],
    [AUDITOR, P_XACML],
  ])
    await insert('role_permission', { role_id: role, permission_id: p });
  // Keyrock gives its creator Provider; roles to users, to an organization's members, to its owners.
  const assign = (row: Record<string, unknown>) => insert('role_assignment', row);
  await assign({ oauth_client_id: APP, role_id: 'provider', user_id: ALICE });
  await assign({ oauth_client_id: JWT_APP, role_id: 'provider', user_id: ALICE });
  await assign({ oauth_client_id: APP, role_id: READER, user_id: BOB });
  await assign({ oauth_client_id: APP, role_id: 'purchaser', user_id: BOB });
  await assign({ oauth_client_id: APP, role_id: WRITER, organization_id: LABS, role_organization: 'member' });
  await assign({ oauth_client_id: APP, role_id: AUDITOR, organization_id: OPS, role_organization: 'owner' });
  await insert('user_authorized_application', {
    user_id: BOB,
    oauth_client_id: APP,
    login_date: new Date('2023-04-05T06:07:08Z'),
  });
  // What Keyrock's pep_proxy.js and iot.js models store: a 16-hex-digit salt and the HMAC.
  await insert('pep_proxy', {
    id: PEP,
    salt: PEP_SALT,
    password: keyrockPassword(PEP_SALT, PEP_PASSWORD),
    oauth_client_id: APP,
  });
  await insert('iot', {
    id: IOT,
    salt: PEP_SALT,
    password: keyrockPassword(PEP_SALT, IOT_PASSWORD),
    oauth_client_id: APP,
  });
  // Sensors accepts the Shop's tokens at GET /user?app_id= (Keyrock's trusted applications).
  await insert('trusted_application', { oauth_client_id: JWT_APP, trusted_oauth_client_id: APP });
}

beforeAll(async () => {
  [maria, service] = await Promise.all([startMariaDb(), startService()]);
  images = mkdtempSync(join(tmpdir(), 'keyrock-images-'));
  const png = await sharp({ create: { width: 64, height: 40, channels: 3, background: '#3366cc' } })
    .png()
    .toBuffer();
  writeFileSync(join(images, IMAGE), png);
  env = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    IDM_TABLE_NAME: service.db.table,
    IDM_DYNAMODB_ENDPOINT: inject('dynamodbEndpoint'),
    IDM_S3_ENDPOINT: inject('s3Endpoint'),
    IDM_LOGO_BUCKET: service.bucket,
    IDM_BCRYPT_COST: '4',
    AWS_REGION: 'us-east-1',
    AWS_ACCESS_KEY_ID: 'local',
    AWS_SECRET_ACCESS_KEY: 'local',
    AWS_EC2_METADATA_DISABLED: 'true',
    DATA_DIR: mkdtempSync(join(tmpdir(), 'gatehouse-import-')),
    // The service's at-rest key, as a deployed import reads the stack's secret: jwt secrets
    // sealed by the import must open in the service.
    IDM_AT_REST_KEY_FILE: process.env.IDM_AT_REST_KEY_FILE,
  };
  await keyrockDatabase('idm');
}, 120_000);

afterAll(async () => {
  await Promise.all([maria?.stop(), service?.close()]);
});

const token = async (form: Record<string, string>, clientId = APP, secret = SECRET) =>
  postForm(`${service.url}/oauth2/token`, form, { authorization: basic(clientId, secret) });

async function userToken(email: string, password: string): Promise<string> {
  const res = await token({ grant_type: 'password', username: email, password });
  expect(res.status).toBe(200);
  return ((await res.json()) as { access_token: string }).access_token;
}

async function decision(accessToken: string, action: string, resource: string, extra = {}) {
  const query = new URLSearchParams({ access_token: accessToken, action, resource, ...extra });
  const res = await fetch(`${service.url}/user?${query}`);
  expect(res.status).toBe(200);
  return ((await res.json()) as { authorization_decision: string }).authorization_decision;
}

describe('idm import keyrock: applications', () => {
  it('counts what it would write with --dry-run, and writes nothing', async () => {
    const run = await idm('import', 'keyrock', '--from', maria.url('idm'), '--images', images, '--dry-run');
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const summary = JSON.parse(run.stdout);
    expect(summary).toMatchObject({
      applications: { read: 3, written: 2, skipped: 1 },
      logos: { read: 2, written: 1, skipped: 1 },
      roles: { read: 5, written: 3, skipped: 2 },
      permissions: { read: 11, written: 4, skipped: 7 },
      assignments: { read: 6, written: 6, skipped: 0 },
      consents: { read: 1, written: 1, skipped: 0 },
      pepProxies: { read: 1, written: 1 },
      iotAgents: { read: 1, written: 1 },
      trustedApplications: { read: 1, written: 1 },
    });
    expect(await getClient(service.db, APP)).toBeUndefined();
  });

  it('moves applications, roles, permissions, assignments and consents, with a reason for each skip', async () => {
    const started = Date.now();
    const run = await idm('import', 'keyrock', '--from', maria.url('idm'), '--images', images);
    expect(run.code).toBe(0);
    const summary = JSON.parse(run.stdout);
    expect(summary).toMatchObject({
      users: { read: 4, written: 4 },
      applications: { read: 3, written: 2, skipped: 1 },
      logos: { read: 2, written: 1, skipped: 1 },
      roles: { read: 5, written: 3, skipped: 2 },
      permissions: { read: 11, written: 4, skipped: 7 },
      // 7 Keyrock seeds for its internal roles, an internal and an XACML permission skipped.
      rolePermissions: { read: 14, written: 5, skipped: 9 },
      // Alice's Provider came with the application's registration.
      assignments: { read: 6, written: 4, skipped: 2 },
      consents: { read: 1, written: 1, skipped: 0 },
      pepProxies: { read: 1, written: 1, skipped: 0 },
      iotAgents: { read: 1, written: 1, skipped: 0 },
      trustedApplications: { read: 1, written: 1, skipped: 0 },
    });
    expect(summary.skipped).toEqual(
      expect.arrayContaining([
        { table: 'oauth_client', id: 'idm_admin_app', reason: 'Keyrock’s own application (its portal)' },
        { table: 'logo', id: JWT_APP, reason: 'no file gone.png in the --images directory' },
        { table: 'permission', id: P_XACML, reason: 'Idm is not configured to create XACML advanced rules' },
        { table: 'role_assignment', id: '1', reason: 'holds this role already' },
      ]),
    );
    expect(summary.notes).toEqual(
      expect.arrayContaining([
        {
          table: 'oauth_client',
          id: APP,
          note: 'only the first redirect_uri kept; left out: http://localhost:9999/other',
        },
      ]),
    );
    expect(summary.notCarriedOver.join(' ')).toMatch(/refresh tokens/);
    console.log(`import of the applications fixture: ${Date.now() - started} ms`);

    const client = await getClient(service.db, APP);
    expect(client).toMatchObject({
      clientId: APP,
      callbackUrl: CALLBACK,
      grantTypes: ['client_credentials', 'password', 'authorization_code', 'implicit', 'refresh_token'],
      postLogoutRedirectUris: ['http://localhost:9999/bye'],
    });
    // Stored as Gatehouse stores every secret: its digest, never the value.
    expect(client?.secretHash).not.toContain(SECRET);
    expect((await getClient(service.db, JWT_APP))?.tokenTypes).toEqual(['jwt', 'permanent']);
  });

  it('gives a client a token with the secret Keyrock issued, and refuses another', async () => {
    const ok = await token({ grant_type: 'client_credentials' });
    expect(ok.status).toBe(200);
    expect(((await ok.json()) as { access_token: string }).access_token).toBeTruthy();
    expect((await token({ grant_type: 'client_credentials' }, APP, randomUUID())).status).toBe(401);
  });

  it('keeps Keyrock’s token types and jwt_secret: a PEP proxy holding the secret verifies the tokens', async () => {
    const jwt = await token({ grant_type: 'client_credentials', scope: 'jwt' }, JWT_APP, JWT_SECRET_CLIENT);
    expect(jwt.status).toBe(200);
    const issued = ((await jwt.json()) as { access_token: string }).access_token;
    // What a proxy configured with PEP_TOKEN_SECRET does: verify the HS256 signature itself.
    const { payload } = await jwtVerify(issued, new TextEncoder().encode(KEYROCK_JWT_SECRET));
    expect(payload).toMatchObject({ app_id: JWT_APP });
    await expect(jwtVerify(issued, new TextEncoder().encode('another-secret'))).rejects.toThrow();
    // The secret itself is sealed at rest, never stored as Keyrock had it.
    const app = await getApplication(service.db, (await getClient(service.db, JWT_APP))!.appId);
    expect(app?.jwtSecret).toMatch(/^v1\./);
    expect(app?.jwtSecret).not.toContain(KEYROCK_JWT_SECRET);

    const permanent = await token(
      { grant_type: 'client_credentials', scope: 'permanent' },
      JWT_APP,
      JWT_SECRET_CLIENT,
    );
    expect(permanent.status).toBe(200);
    const body = (await permanent.json()) as { access_token: string; expires_in?: number };
    expect(body.access_token).toBeTruthy();
    expect(body.expires_in).toBeUndefined();
  });

  it('decides at /user as Keyrock did: direct roles, a pattern, an organization’s members and owners', async () => {
    const bob = await userToken('bob@kr.test', 'bob-pass');
    const userInfo = async (token: string) =>
      (await (await fetch(`${service.url}/user?access_token=${token}`)).json()) as {
        organizations: { id: string; roles: unknown[] }[];
      };
    const me = await fetch(`${service.url}/user?access_token=${bob}`);
    const body = (await me.json()) as { id: string; roles: { name: string }[]; organizations: unknown[] };
    expect(body.id).toBe(BOB);
    expect(body.roles.map((r) => r.name).sort()).toEqual(['Purchaser', 'Reader']);
    expect(await decision(bob, 'GET', '/things')).toBe('Permit');
    expect(await decision(bob, 'GET', '/things/42')).toBe('Permit');
    expect(await decision(bob, 'GET', '/things/abc')).toBe('Deny');
    expect(await decision(bob, 'POST', '/things')).toBe('Deny');

    // Carol is a member of Labs, whose members hold Writer.
    const carol = await userToken('carol@kr.test', 'carol-pass');
    expect(await decision(carol, 'POST', '/things')).toBe('Permit');
    expect(await decision(carol, 'GET', '/things')).toBe('Deny');
    expect(await decision(carol, 'DELETE', '/things', { authorization_service_header: 'tenant-a' })).toBe(
      'Permit',
    );
    expect(await decision(carol, 'DELETE', '/things', { authorization_service_header: 'tenant-b' })).toBe(
      'Deny',
    );

    // Labs gave Writer to its members: Alice owns Labs, so it is not hers (Keyrock answers so).
    const alice = await userToken('alice@kr.test', 'alice-pass');
    expect(await decision(alice, 'POST', '/things')).toBe('Deny');

    // Ops gave Auditor to its owners only: Dave has it, through Ops; Bob (a member) does not.
    const dave = await userToken('dave@kr.test', 'dave-pass');
    expect(await decision(dave, 'GET', '/things')).toBe('Permit');
    expect(await decision(dave, 'GET', '/things/1')).toBe('Deny');
    const daves = (await (await fetch(`${service.url}/user?access_token=${dave}`)).json()) as {
      roles: unknown[];
      organizations: { id: string; roles: { name: string }[] }[];
    };
    expect(daves.organizations).toEqual([
      expect.objectContaining({ id: OPS, roles: [expect.objectContaining({ name: 'Auditor' })] }),
    ]);
    const bobs = (await userInfo(bob)).organizations.find((o) => o.id === OPS);
    expect(bobs?.roles).toEqual([]);
  });

  it('lets the PEP proxy and the IoT agent sign in with the passwords Keyrock gave them', async () => {
    const signIn = (name: string, password: string) =>
      fetch(`${service.url}/v1/auth/tokens`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ name, password }),
      });
    expect((await signIn(PEP, 'wrong')).status).toBe(401);
    const pep = await signIn(PEP, PEP_PASSWORD);
    expect(pep.status).toBe(201);
    expect(pep.headers.get('x-subject-token')).toBeTruthy();
    // Upgraded to bcrypt on that first success: the same password still works.
    expect((await signIn(PEP, PEP_PASSWORD)).status).toBe(201);

    const iot = await token({ grant_type: 'password', username: IOT, password: IOT_PASSWORD });
    expect(iot.status).toBe(200);
    expect((await token({ grant_type: 'password', username: IOT, password: 'wrong' })).status).toBe(400);
  });

  it('keeps the trusted applications: Sensors accepts the Shop’s tokens, the Shop not Sensors’', async () => {
    const bob = await userToken('bob@kr.test', 'bob-pass');
    const trusted = await fetch(`${service.url}/user?access_token=${bob}&app_id=${JWT_APP}`);
    expect(trusted.status).toBe(200);
    const sensors = await token({ grant_type: 'client_credentials' }, JWT_APP, JWT_SECRET_CLIENT);
    const other = ((await sensors.json()) as { access_token: string }).access_token;
    expect((await fetch(`${service.url}/user?access_token=${other}&app_id=${APP}`)).status).toBe(401);
  });

  it('honours the consent a user gave in Keyrock, and asks one who gave none', async () => {
    const ids = await importedIds(service.db, 'user', [BOB, CAROL]);
    const params = new URLSearchParams({
      response_type: 'code',
      client_id: APP,
      redirect_uri: CALLBACK,
      state: 's',
    });
    const authorize = async (userId: number) => {
      const browser = await signedIn(service.db, userId);
      return fetch(`${service.url}/oauth2/authorize?${params}`, {
        redirect: 'manual',
        headers: { cookie: browser.cookie, accept: 'text/html' },
      });
    };
    const bob = await authorize(ids.get(BOB)!);
    expect(bob.status).toBe(302);
    const back = new URL(bob.headers.get('location')!);
    expect(`${back.origin}${back.pathname}`).toBe(CALLBACK);
    expect(back.searchParams.get('code')).toBeTruthy();
    const carol = await authorize(ids.get(CAROL)!);
    expect(carol.status).toBe(200);
    expect(await carol.text()).toContain('Shop');
  });

  it('serves the logo made from the image Keyrock kept', async () => {
    const app = await getApplication(service.db, (await getClient(service.db, APP))!.appId);
    expect(app?.logoKey).toMatch(/^logos\//);
    const res = await fetch(`${service.url}/${app!.logoKey}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/png');
    const meta = await sharp(Buffer.from(await res.arrayBuffer())).metadata();
    expect([meta.width, meta.height]).toEqual([256, 256]);
  });

  it('writes nothing twice when run again', async () => {
    const run = await idm('import', 'keyrock', '--from', maria.url('idm'), '--images', images);
    expect(run.code).toBe(0);
    const summary = JSON.parse(run.stdout);
    for (const table of [
      'users',
      'applications',
      'logos',
      'roles',
      'permissions',
      'rolePermissions',
      'assignments',
      'consents',
      'pepProxies',
      'iotAgents',
      'trustedApplications',
    ]) {
      expect({ table, written: summary[table].written }).toEqual({ table, written: 0 });
    }
    expect(summary.skipped).toEqual(
      expect.arrayContaining([
        { table: 'oauth_client', id: APP, reason: 'imported before' },
        { table: 'role', id: READER, reason: 'imported before' },
        { table: 'permission', id: P_ITEM, reason: 'imported before' },
        { table: 'logo', id: APP, reason: 'has a logo already' },
        { table: 'user_authorized_application', id: '1', reason: 'consented before' },
        { table: 'pep_proxy', id: PEP, reason: 'imported before' },
        { table: 'trusted_application', id: '1', reason: 'trusted before' },
      ]),
    );
    // The client still authenticates with the same secret.
    expect((await token({ grant_type: 'client_credentials' })).status).toBe(200);
  });
});

describe('idm import keyrock: the FIWARE tutorial database', () => {
  it('moves the Securing-Access tutorial’s dump, whose users and clients then work', async () => {
    // FIWARE/tutorials.Securing-Access mysql-data/backup.sql (MIT), a Keyrock 7 database.
    const dump = readFileSync('test/fixtures/keyrock-tutorial.sql', 'utf8').replace(
      /CREATE DATABASE idm;\s*USE idm\s*\n/,
      'CREATE DATABASE tutorial; USE tutorial;\n',
    );
    await maria.query(dump);
    const started = Date.now();
    const run = await idm('import', 'keyrock', '--from', maria.url('tutorial'));
    const ms = Date.now() - started;
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const summary = JSON.parse(run.stdout);
    console.log(
      `FIWARE tutorial dump imported in ${ms} ms:`,
      JSON.stringify(
        Object.fromEntries(
          [
            'users',
            'organizations',
            'memberships',
            'applications',
            'roles',
            'permissions',
            'rolePermissions',
            'assignments',
            'consents',
          ].map((t) => [t, summary[t]]),
        ),
      ),
    );
    expect(summary).toMatchObject({
      users: { read: 10, written: 10 },
      organizations: { read: 2, written: 2 },
      applications: { read: 2, written: 2 },
      roles: { read: 4, written: 2 },
      permissions: { read: 10, written: 4 },
      rolePermissions: { read: 12, written: 5 },
      // Four rows name applications the dump does not hold; Alice's Provider came with each registration.
      assignments: { read: 10, written: 4, skipped: 6 },
    });
    // The tutorial's client and its users, with the secret and password the tutorial documents.
    const client = 'tutorial-dckr-site-0000-xpresswebapp';
    const secret = 'tutorial-dckr-site-0000-clientsecret';
    const grant = await token(
      { grant_type: 'password', username: 'charlie-security@test.com', password: 'test' },
      client,
      secret,
    );
    expect(grant.status).toBe(200);
    const charlie = ((await grant.json()) as { access_token: string }).access_token;
    expect(await decision(charlie, 'POST', '/door/unlock')).toBe('Permit');
    expect(await decision(charlie, 'GET', '/app/price-change')).toBe('Deny');
    const detective = await token(
      { grant_type: 'password', username: 'detective1@test.com', password: 'test' },
      client,
      secret,
    );
    const d1 = ((await detective.json()) as { access_token: string }).access_token;
    // A member of the Security organization, which holds the Security Team role.
    expect(await decision(d1, 'POST', '/bell/ring')).toBe('Permit');
    expect(await decision(d1, 'GET', '/app/order-stock')).toBe('Deny');
  });
});
