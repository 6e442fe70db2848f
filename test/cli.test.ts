import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import type { Db } from '../shared/store/db.js';
import { getMembership } from '../shared/store/organizations.js';
import { roleCatalogue } from '../shared/store/roles.js';
import { totals } from '../shared/store/stats.js';
import { getLogin, getUser } from '../shared/store/users.js';
import { runIdm } from './support/cli.js';
import { testDb } from './support/service.js';

interface Run {
  code: number;
  stdout: string;
  stderr: string;
  /** stdout parsed: the one JSON object a successful command prints. */
  json: Record<string, unknown>;
}

let db: Db;
let env: NodeJS.ProcessEnv;

/** Runs `idm` as an operator would (bin/idm.mjs), against this file's table on the run's DynamoDB Local. */
async function idm(...args: string[]): Promise<Run> {
  const run = await runIdm(env, args, 60_000);
  return { ...run, json: run.code === 0 ? (JSON.parse(run.stdout) as Record<string, unknown>) : {} };
}

/** A failed command: nothing on stdout, exactly one line on stderr, the expected exit code. */
function expectFailure(run: Run, code: 1 | 2, message: string | RegExp) {
  expect(run.stdout).toBe('');
  expect(run.stderr.endsWith('\n')).toBe(true);
  expect(run.stderr.trimEnd().split('\n')).toHaveLength(1);
  expect(run.stderr).toMatch(typeof message === 'string' ? `idm: ${message}` : message);
  expect(run.code).toBe(code);
}

/** A successful command: exactly one JSON line on stdout and nothing on stderr. */
function expectSuccess(run: Run) {
  expect(run.stderr).toBe('');
  expect(run.code).toBe(0);
  expect(run.stdout.trimEnd().split('\n')).toHaveLength(1);
}

beforeAll(async () => {
  db = await testDb();
  env = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    IDM_TABLE_NAME: db.table,
    IDM_DYNAMODB_ENDPOINT: inject('dynamodbEndpoint'),
    IDM_BCRYPT_COST: '4',
    AWS_REGION: 'us-east-1',
    AWS_ACCESS_KEY_ID: 'local',
    AWS_SECRET_ACCESS_KEY: 'local',
    AWS_EC2_METADATA_DISABLED: 'true',
    // Far from any real data: the CLI must not look here when IDM_TABLE_NAME is set.
    DATA_DIR: mkdtempSync(join(tmpdir(), 'gatehouse-cli-')),
  };
});

describe('idm: a full set-up with good input', () => {
  it('creates users, an application, an organization, roles, permissions and authorizations', async () => {
    const alice = await idm(
      'user',
      'create',
      '--email',
      'Alice@Example.com',
      '--password',
      'secret-pass',
      '--name',
      'Alice',
      '--nick',
      'alice',
    );
    expectSuccess(alice);
    expect(alice.json).toEqual({
      id: 1,
      actorId: 1,
      email: 'alice@example.com',
      displayName: 'Alice',
      nickName: 'alice',
      admin: false,
    });
    expect((await getLogin(db, 'alice@example.com'))?.passwordHash).toMatch(/^\$2[aby]\$04\$/);

    const bob = await idm('user', 'create', '--email=bob@example.com', '--password=another-pass');
    expectSuccess(bob);
    expect(bob.json).toMatchObject({ id: 2, actorId: 2, nickName: 'bob', displayName: 'bob' });

    const app = await idm(
      'app',
      'create',
      '--owner',
      '1',
      '--name',
      'Shop',
      '--description',
      'A shop',
      '--url',
      'https://shop.example',
      '--callback',
      'https://shop.example/cb',
      '--grant-types',
      'authorization_code,refresh_token',
    );
    expectSuccess(app);
    expect(app.json).toEqual({
      id: 1,
      clientId: expect.stringMatching(/^[0-9a-f-]{36}$/),
      clientSecret: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
      name: 'Shop',
      description: 'A shop',
      url: 'https://shop.example',
      callbackUrl: 'https://shop.example/cb',
      accessTokenFormat: 'opaque',
      postLogoutRedirectUris: [],
      roles: [
        { id: 1, name: 'Provider' },
        { id: 2, name: 'Purchaser' },
      ],
    });

    const org = await idm('org', 'create', '--owner', '1', '--name', 'Acme', '--description', 'Buyers');
    expectSuccess(org);
    expect(org.json).toEqual({ id: 1, actorId: 3, name: 'Acme', description: 'Buyers' });

    const member = await idm('org', 'add-member', '--org', '1', '--user', '2');
    expectSuccess(member);
    expect(member.json).toEqual({ orgId: 1, userId: 2, role: 'member' });
    expect(await idm('org', 'add-member', '--org', '1', '--user', '2', '--role', 'owner')).toMatchObject({
      code: 0,
      json: { orgId: 1, userId: 2, role: 'owner' },
    });
    expect((await getMembership(db, 1, 2))?.role).toBe('owner');

    const role = await idm('role', 'create', '--app', '1', '--name', 'Editor');
    expectSuccess(role);
    expect(role.json).toEqual({ id: 3, name: 'Editor' });

    const perm = await idm(
      'permission',
      'create',
      '--app',
      '1',
      '--name',
      'Read',
      '--verb',
      'get',
      '--path',
      '/things',
      '--description',
      'Read things',
    );
    expectSuccess(perm);
    expect(perm.json).toEqual({
      id: 1,
      name: 'Read',
      description: 'Read things',
      verb: 'GET',
      path: '/things',
    });

    expect((await idm('role', 'permit', '--app', '1', '--role', '3', '--permission', '1')).json).toEqual({
      appId: 1,
      roleId: 3,
      permissionId: 1,
      on: true,
    });
    expect([...((await roleCatalogue(db, 1)).switches.get(3) ?? [])]).toEqual([1]);
    const off = await idm('role', 'permit', '--app', '1', '--role', '3', '--permission', '1', '--off');
    expectSuccess(off);
    expect(off.json).toMatchObject({ on: false });
    expect((await roleCatalogue(db, 1)).switches.size).toBe(0);

    const toUser = await idm('authorize', '--app', '1', '--user', '2', '--role', '3');
    expectSuccess(toUser);
    expect(toUser.json).toEqual({ appId: 1, userId: 2, roleId: 3 });
    const toOrg = await idm('authorize', '--app', '1', '--org', '1', '--role', '2');
    expect(toOrg.json).toEqual({ appId: 1, orgId: 1, roleId: 2 });

    // The SCIM endpoint, run once through invoke, counts what the CLI created.
    const scim = await idm('invoke', 'scim-service-provider-configs');
    expectSuccess(scim);
    expect(scim.json).toMatchObject({ statusCode: 200 });
    expect(JSON.parse(scim.json.body as string)).toMatchObject({
      totalUsers: '2',
      totalOrganizations: '1',
      totalResources: '3',
    });

    // Nothing to build for data this version wrote: every summary is already there and right.
    const migrate = await idm('migrate');
    expectSuccess(migrate);
    expect(migrate.json).toEqual({
      applications: 1,
      catalogues: 0,
      orgRoles: 0,
      retries: 0,
      users: 2,
      usersIndexed: 0,
    });
  }, 120_000);
});

describe('idm: bad input', () => {
  it('refuses bad command lines with exit 2 and one line, before touching the table', async () => {
    const runs = await Promise.all([
      idm(),
      idm('user', 'delete'),
      idm('user', 'create', '--email', 'x@example.com'),
      idm('user', 'create', '--email', 'x@example.com', '--password', 'long-enough', '--owner'),
      idm('user', 'create', '--email', '--password', 'long-enough'),
      idm(
        'app',
        'create',
        '--owner',
        'abc',
        '--name',
        'N',
        '--description',
        'D',
        '--url',
        'https://a.example',
        '--callback',
        'https://a.example/cb',
      ),
      idm('role', 'create', '--app', '1.5', '--name', 'R'),
      idm('role', 'create', '--app', '-3', '--name', 'R'),
      idm('role', 'permit', '--app', '1', '--role', '1', '--permission', '1', '--off=yes'),
      idm('authorize', '--app', '1', '--user', '1', '--org', '1', '--role', '1'),
      idm('authorize', '--app', '1', '--role', '1'),
      idm('org', 'add-member', '--org', '1', '--user', '1', '--role', 'admin'),
      idm('org', 'create', '--owner', '1'),
    ]);
    const expected: [1 | 2, string | RegExp][] = [
      [2, /^Usage: npx idm/],
      [2, 'unknown command "user delete"'],
      [2, '--password is required for "idm user create".'],
      [2, 'Unknown flag --owner for "idm user create"'],
      [2, '--email needs a value.'],
      [2, '--owner must be a positive integer, got "abc".'],
      [2, '--app must be a positive integer, got "1.5".'],
      [2, '--app must be a positive integer, got "-3".'],
      [2, '--off takes no value.'],
      [2, 'Give exactly one of --user and --org.'],
      [2, 'Give exactly one of --user and --org.'],
      [2, '--role must be member or owner, got "admin".'],
      [2, '--name is required for "idm org create".'],
    ];
    runs.forEach((run, i) => {
      const [code, message] = expected[i]!;
      if (i === 0) {
        // No command at all: the usage text, on stderr.
        expect(run.stdout).toBe('');
        expect(run.stderr).toMatch(message);
        expect(run.code).toBe(code);
      } else expectFailure(run, code, message);
    });
    expect(await totals(db)).toMatchObject({ users: 2 });
  }, 120_000);

  it('reports invalid values with the flag’s name and writes nothing', async () => {
    const before = await totals(db);
    const runs = await Promise.all([
      idm('user', 'create', '--email', 'not-an-email', '--password', 'long-enough'),
      idm('user', 'create', '--email', 'short@example.com', '--password', 'short'),
      idm('user', 'create', '--email', 'nick@example.com', '--password', 'long-enough', '--nick', 'a b'),
      idm(
        'app',
        'create',
        '--owner',
        '1',
        '--name',
        'N',
        '--description',
        'D',
        '--url',
        'ftp://a.example',
        '--callback',
        'https://a.example/cb',
      ),
      idm(
        'app',
        'create',
        '--owner',
        '1',
        '--name',
        'N',
        '--description',
        'D',
        '--url',
        'https://a.example',
        '--callback',
        'https://a.example/cb#frag',
      ),
      idm(
        'app',
        'create',
        '--owner',
        '1',
        '--name',
        'N',
        '--description',
        'D',
        '--url',
        'https://a.example',
        '--callback',
        'https://a.example/cb',
        '--grant-types',
        'password,magic',
      ),
      idm('permission', 'create', '--app', '1', '--name', 'P', '--verb', 'TRACE', '--path', '/p'),
      idm('permission', 'create', '--app', '1', '--name', 'P', '--verb', 'GET', '--path', 'p'),
    ]);
    expectFailure(runs[0]!, 2, '--email must be an email address.');
    expectFailure(runs[1]!, 2, '--password must be at least 8 characters.');
    expectFailure(runs[2]!, 2, '--nick must be 2 to 32 letters');
    expectFailure(runs[3]!, 2, '--url must be an absolute http(s) URL.');
    expectFailure(runs[4]!, 2, '--callback must not contain a fragment.');
    expectFailure(runs[5]!, 2, /--grant-types may contain only .*"magic" is unknown\./);
    expectFailure(runs[6]!, 2, '--verb must be one of GET, PUT, POST, DELETE, PATCH.');
    expectFailure(runs[7]!, 2, '--path must start with "/".');
    expect(await totals(db)).toEqual(before);
    expect((await roleCatalogue(db, 1)).permissions).toHaveLength(1);
  }, 120_000);

  it('refuses unknown ids and duplicates with exit 1, leaving the data as it was', async () => {
    const before = await totals(db);
    const runs = await Promise.all([
      idm('user', 'create', '--email', 'ALICE@example.com', '--password', 'long-enough'),
      idm('user', 'create', '--email', 'new@example.com', '--password', 'long-enough', '--nick', 'ALICE'),
      idm(
        'app',
        'create',
        '--owner',
        '99',
        '--name',
        'N',
        '--description',
        'D',
        '--url',
        'https://a.example',
        '--callback',
        'https://a.example/cb',
      ),
      idm('org', 'create', '--owner', '99', '--name', 'Ghost'),
      idm('org', 'add-member', '--org', '99', '--user', '1'),
      idm('org', 'add-member', '--org', '1', '--user', '99'),
      idm('role', 'create', '--app', '99', '--name', 'R'),
      idm('permission', 'create', '--app', '99', '--name', 'P', '--verb', 'GET', '--path', '/p'),
      idm('role', 'permit', '--app', '1', '--role', '3', '--permission', '99'),
      idm('authorize', '--app', '1', '--user', '99', '--role', '3'),
      idm('authorize', '--app', '1', '--org', '99', '--role', '3'),
      idm('authorize', '--app', '1', '--user', '1', '--role', '99'),
    ]);
    expectFailure(runs[0]!, 1, 'A user with this email already exists.');
    expectFailure(runs[1]!, 1, 'This nickName is taken.');
    expectFailure(runs[2]!, 1, 'User 99 does not exist.');
    expectFailure(runs[3]!, 1, 'User 99 does not exist.');
    expectFailure(runs[4]!, 1, 'Organization 99 does not exist.');
    expectFailure(runs[5]!, 1, 'User 99 does not exist.');
    expectFailure(runs[6]!, 1, 'Application 99 does not exist.');
    expectFailure(runs[7]!, 1, 'Application 99 does not exist.');
    expectFailure(runs[8]!, 1, 'Permission 99 does not exist in application 1.');
    expectFailure(runs[9]!, 1, 'User 99 does not exist.');
    expectFailure(runs[10]!, 1, 'Organization 99 does not exist.');
    expectFailure(runs[11]!, 1, 'Role 99 does not exist in application 1.');
    expect(await totals(db)).toEqual(before);
    expect(await getLogin(db, 'new@example.com')).toBeUndefined();
  }, 120_000);

  it('keeps the last owner of an organization', async () => {
    // Organization 1 has two owners (alice, bob) after the set-up; demote one, then the other.
    await idm('org', 'add-member', '--org', '1', '--user', '1', '--role', 'member');
    const last = await idm('org', 'add-member', '--org', '1', '--user', '2', '--role', 'member');
    expectFailure(last, 2, 'An organization must keep at least one owner.');
    expect((await getMembership(db, 1, 2))?.role).toBe('owner');
  }, 60_000);

  it('names a missing table in one line', async () => {
    const saved = env.IDM_TABLE_NAME;
    env.IDM_TABLE_NAME = 'no-such-table';
    try {
      const run = await idm('role', 'create', '--app', '1', '--name', 'R');
      expectFailure(
        run,
        1,
        /^idm: The table "no-such-table" at http:\/\/127\.0\.0\.1:\d+ does not exist\.\n$/,
      );
    } finally {
      env.IDM_TABLE_NAME = saved;
    }
  }, 60_000);
});

describe('idm invoke', () => {
  it('builds the event from flags and prints the handler’s result', async () => {
    const run = await idm(
      'invoke',
      'scim-service-provider-configs',
      '--method',
      'get',
      '--path',
      '/v2/ServiceProviderConfigs',
      '--query',
      'a=1',
      '--header',
      'Accept: application/json',
    );
    expectSuccess(run);
    expect(run.json).toMatchObject({
      statusCode: 200,
      headers: { 'content-type': 'application/json; charset=utf-8' },
    });
    expect(JSON.parse(run.json.body as string)).toMatchObject({ totalUsers: '2' });
  }, 60_000);

  it('reads an event file', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'gatehouse-event-'));
    const file = join(dir, 'event.json');
    writeFileSync(
      file,
      JSON.stringify({
        version: '2.0',
        routeKey: 'GET /v2/ServiceProviderConfigs',
        rawPath: '/v2/ServiceProviderConfigs',
        rawQueryString: '',
        headers: { host: 'localhost' },
        requestContext: { http: { method: 'GET', path: '/v2/ServiceProviderConfigs' }, requestId: 'r-1' },
        isBase64Encoded: false,
      }),
    );
    const run = await idm('invoke', 'scim-service-provider-configs', '--event', file);
    expectSuccess(run);
    expect(run.json).toMatchObject({ statusCode: 200 });

    writeFileSync(join(dir, 'bad.json'), '{nope');
    const [bad, missing, mixed] = await Promise.all([
      idm('invoke', 'scim-service-provider-configs', '--event', join(dir, 'bad.json')),
      idm('invoke', 'scim-service-provider-configs', '--event', join(dir, 'missing.json')),
      idm('invoke', 'scim-service-provider-configs', '--event', file, '--method', 'GET'),
    ]);
    expectFailure(bad, 2, /is not valid JSON\./);
    expectFailure(missing, 2, /cannot read the file/);
    expectFailure(mixed, 2, '--event cannot be combined with --method.');
  }, 60_000);

  it('refuses unknown functions, paths of other routes and malformed headers', async () => {
    const [unknown, traversal, wrongPath, wrongMethod, header, noFn] = await Promise.all([
      idm('invoke', 'no-such-function'),
      idm('invoke', '../local/start'),
      idm('invoke', 'scim-service-provider-configs', '--path', '/v2/Users'),
      idm('invoke', 'scim-service-provider-configs', '--method', 'POST'),
      idm('invoke', 'scim-service-provider-configs', '--header', 'no colon here'),
      idm('invoke'),
    ]);
    expectFailure(
      unknown,
      2,
      /^idm: Unknown function "no-such-function"; the route table has: .*scim-service-provider-configs/,
    );
    expectFailure(traversal, 2, 'Unknown function "../local/start"');
    expectFailure(
      wrongPath,
      2,
      'GET /v2/Users is not the route of this function (GET /v2/ServiceProviderConfigs).',
    );
    expectFailure(wrongMethod, 2, 'POST /v2/ServiceProviderConfigs is not the route of this function');
    expectFailure(header, 2, `--header must look like 'Name: value', got "no colon here".`);
    expectFailure(noFn, 2, '"idm invoke" needs an argument');
  }, 60_000);
});

describe('npx idm', () => {
  it('resolves to this package’s bin from the project root', async () => {
    const run = await new Promise<Run>((resolve) => {
      execFile(
        'npx',
        ['--no-install', 'idm', '--help'],
        { env: { ...process.env, ...env }, timeout: 60_000 },
        (error, stdout, stderr) => resolve({ code: error ? 1 : 0, stdout, stderr, json: {} }),
      );
    });
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^Usage: npx idm <command> \[flags\]/);
    expect(run.stdout).toContain('idm invoke <function>');
  }, 60_000);
});

describe('idm: administrators', () => {
  it('creates an administrator with --admin, and sets or clears the flag with user set-admin', async () => {
    const created = await idm(
      'user',
      'create',
      '--email',
      'root@example.com',
      '--password',
      'root-password',
      '--admin',
    );
    expectSuccess(created);
    expect(created.json).toMatchObject({ email: 'root@example.com', admin: true });
    const id = created.json.id as number;
    expect((await getUser(db, id))!.admin).toBe(true);

    const plain = await idm('user', 'create', '--email', 'plain@example.com', '--password', 'plain-password');
    expectSuccess(plain);
    expect(plain.json.admin).toBe(false);
    const promoted = await idm('user', 'set-admin', '--user', String(plain.json.id));
    expectSuccess(promoted);
    expect(promoted.json).toEqual({ id: plain.json.id, email: 'plain@example.com', admin: true });
    expect((await getUser(db, plain.json.id as number))!.admin).toBe(true);

    const demoted = await idm('user', 'set-admin', '--user', String(id), '--off');
    expectSuccess(demoted);
    expect(demoted.json).toMatchObject({ id, admin: false });
    expect((await getUser(db, id))!.admin).toBe(false);
  });

  it('refuses set-admin for an unknown user (1) or a bad id (2), writing nothing', async () => {
    expectFailure(await idm('user', 'set-admin', '--user', '99999'), 1, 'User 99999 does not exist.');
    expect(await getUser(db, 99999)).toBeUndefined();
    expectFailure(
      await idm('user', 'set-admin', '--user', 'abc'),
      2,
      '--user must be a positive integer, got "abc".',
    );
    expectFailure(await idm('user', 'set-admin'), 2, '--user is required for "idm user set-admin".');
    expectFailure(await idm('user', 'set-admin', '--user', '1', '--off=no'), 2, '--off takes no value.');
  });
});

describe('idm keys', () => {
  it('makes the first signing key, then rotates: the new key is published before it signs', async () => {
    const file = join(env.DATA_DIR!, 'signing-keys.json');
    // The keys are no table's business: no IDM_TABLE_NAME needed, and no DynamoDB Local started.
    const saved = env.IDM_TABLE_NAME;
    delete env.IDM_TABLE_NAME;
    const listed = await idm('keys', 'list').finally(() => {
      env.IDM_TABLE_NAME = saved;
    });
    expectSuccess(listed);
    expect(listed.json).toEqual({ keys: [] });

    const first = await idm('keys', 'rotate');
    expectSuccess(first);
    const [key] = first.json.keys as { kid: string; alg: string; state: string }[];
    expect(key).toMatchObject({ alg: 'RS256', state: 'active' });
    // The private keys are readable by their owner only.
    expect(statSync(file).mode & 0o777).toBe(0o600);

    const second = await idm('keys', 'rotate', '--alg', 'ES256');
    expectSuccess(second);
    const keys = second.json.keys as { kid: string; alg: string; state: string; signsFrom: string }[];
    expect(keys.map((k) => [k.kid === key!.kid, k.alg, k.state])).toEqual([
      [true, 'RS256', 'active'],
      [false, 'ES256', 'next'],
    ]);
    // It signs 15 minutes later (docs/operations.md).
    const lead = (Date.parse(keys[1]!.signsFrom) - Date.now()) / 1000;
    expect(lead).toBeGreaterThan(880);
    expect(lead).toBeLessThanOrEqual(900);
    expect(JSON.parse(readFileSync(file, 'utf8')).keys).toHaveLength(2);
  });

  it('refuses an unknown algorithm with exit 2', async () => {
    expectFailure(await idm('keys', 'rotate', '--alg', 'HS256'), 2, '--alg must be one of RS256, ES256.');
  });

  it('creates an application with JWT access tokens, and refuses an unknown format', async () => {
    const base = ['app', 'create', '--owner', '1', '--name', 'J', '--description', 'D'];
    const urls = ['--url', 'https://j.example', '--callback', 'https://j.example/cb'];
    const jwt = await idm(...base, ...urls, '--access-token-format', 'jwt');
    expectSuccess(jwt);
    expect(jwt.json.accessTokenFormat).toBe('jwt');
    const logout = await idm(
      ...base,
      ...urls,
      '--post-logout-uri',
      'https://j.example/bye',
      '--post-logout-uri',
      'https://j.example/again',
    );
    expectSuccess(logout);
    expect(logout.json.postLogoutRedirectUris).toEqual(['https://j.example/bye', 'https://j.example/again']);
    expectFailure(
      await idm(...base, ...urls, '--post-logout-uri', 'ftp://j.example'),
      2,
      '--post-logout-uri must be an absolute http(s) URL.',
    );
    expectFailure(
      await idm(...base, ...urls, '--access-token-format', 'paseto'),
      2,
      '--access-token-format must be opaque or jwt.',
    );
  });
});
