// Puts one fixed set of OAuth, GET /user, /v1 and agent sign-in requests to an identity manager
// (Keyrock or Gatehouse) and writes every answer as JSON: node probe.mjs <baseUrl> <dataset.json> <out.json>
import { readFileSync, writeFileSync } from 'node:fs';

const [base, datasetFile, outFile] = process.argv.slice(2);
const ds = JSON.parse(readFileSync(datasetFile, 'utf8'));
const out = { base, probes: {} };
const record = (name, value) => {
  out.probes[name] = value;
};

async function call(method, path, { query, form, json, basic, headers = {} } = {}) {
  const url = new URL(path, base);
  for (const [k, v] of Object.entries(query ?? {})) if (v !== undefined) url.searchParams.set(k, v);
  const h = { ...headers };
  let body;
  if (form) {
    h['content-type'] = 'application/x-www-form-urlencoded';
    body = new URLSearchParams(form).toString();
  } else if (json) {
    h['content-type'] = 'application/json';
    body = JSON.stringify(json);
  }
  if (basic) h.authorization = `Basic ${Buffer.from(`${basic[0]}:${basic[1]}`).toString('base64')}`;
  const res = await fetch(url, { method, headers: h, body, redirect: 'manual' });
  const text = await res.text();
  let parsed = text;
  try {
    parsed = JSON.parse(text);
  } catch {}
  const keep = {};
  for (const name of ['x-subject-token', 'www-authenticate', 'content-type']) {
    if (res.headers.get(name)) keep[name] = res.headers.get(name);
  }
  return { status: res.status, headers: keep, body: parsed };
}

const apps = ds.apps;
const appOf = (key) => apps[key];
const token = (app, form) => call('POST', '/oauth2/token', { form, basic: [app.id, app.secret] });
/** GET /user with the token in the query, as the PEP proxy asks, and any further parameters. */
const lookup = (accessToken, query = {}) =>
  call('GET', '/user', { query: { access_token: accessToken, ...query } });
/** A GET of Keyrock's /v1 API with an X-Auth-Token. */
const v1 = (authToken, path) => call('GET', path, { headers: { 'x-auth-token': authToken } });

// Decisions asked of each application (action, resource, service header)
const DECISIONS = {
  A: [
    ['GET', '/orders'],
    ['get', '/orders'],
    ['POST', '/orders'],
    ['DELETE', '/orders'],
    ['GET', '/orders/42'],
    ['GET', '/ORDERS/42'],
    ['GET', '/orders/abc'],
    ['GET', '/orders/'],
    ['GET', '/reports', 'tenant1'],
    ['GET', '/reports', 'tenant2'],
    ['GET', '/reports'],
    ['GET', '/audit'],
    ['PUT', '/stock'],
  ],
  B: [
    ['GET', '/stock'],
    ['PUT', '/stock'],
    ['DELETE', '/stock'],
    ['GET', '/orders'],
  ],
};

async function userProbes(prefix, accessToken, askApps) {
  record(`${prefix} /user`, await lookup(accessToken));
  record(
    `${prefix} /user bearer-header`,
    await call('GET', '/user', { headers: { authorization: `Bearer ${accessToken}` } }),
  );
  for (const key of askApps) {
    const app = appOf(key);
    record(`${prefix} /user app_id=${key}`, await lookup(accessToken, { app_id: app.id }));
    for (const [action, resource, header] of DECISIONS[key]) {
      record(
        `${prefix} /user app_id=${key} ${action} ${resource}${header ? ` svc=${header}` : ''}`,
        await lookup(accessToken, {
          app_id: app.id,
          action,
          resource,
          authorization_service_header: header,
        }),
      );
    }
  }
}

const tokens = {};
for (const [name, user] of Object.entries(ds.users)) {
  for (const key of ['A', 'B']) {
    const app = appOf(key);
    const r = await token(app, { grant_type: 'password', username: user.email, password: user.password });
    record(`${name}@${key} password-grant`, r);
    const t = r.body?.access_token;
    if (t) {
      tokens[`${name}@${key}`] = r.body;
      // A trusts B: a B token may be checked with app_id=A; A's token with app_id=B is refused
      await userProbes(`${name}@${key}`, t, key === 'A' ? ['A', 'B'] : ['B', 'A']);
    }
  }
  record(
    `${name} wrong-password`,
    await token(appOf('A'), { grant_type: 'password', username: user.email, password: `${user.password}x` }),
  );
  record(
    `${name} /v1/auth/tokens`,
    await call('POST', '/v1/auth/tokens', { json: { name: user.email, password: user.password } }),
  );
}

// Refresh with alice's A token
if (tokens['alice@A']?.refresh_token) {
  const r = await token(appOf('A'), {
    grant_type: 'refresh_token',
    refresh_token: tokens['alice@A'].refresh_token,
  });
  record('alice@A refresh-grant', r);
  if (r.body?.access_token)
    record('alice@A refreshed /user', await lookup(r.body.access_token, { app_id: appOf('A').id }));
}

// Client credentials
for (const key of ['A', 'B']) {
  const r = await token(appOf(key), { grant_type: 'client_credentials' });
  record(`client@${key} client-credentials`, r);
  if (r.body?.access_token) {
    record(`client@${key} /user`, await lookup(r.body.access_token));
    record(`client@${key} /user app_id=${key}`, await lookup(r.body.access_token, { app_id: appOf(key).id }));
    record(
      `client@${key} /user app_id=${key} decision`,
      await lookup(r.body.access_token, {
        app_id: appOf(key).id,
        action: 'GET',
        resource: key === 'A' ? '/orders' : '/stock',
      }),
    );
  }
  record(
    `client@${key} wrong-secret`,
    await call('POST', '/oauth2/token', {
      form: { grant_type: 'client_credentials' },
      basic: [appOf(key).id, `${appOf(key).secret}x`],
    }),
  );
}

// Keyrock token types on B: jwt and permanent
for (const scope of ['jwt', 'permanent', 'bearer', 'jwt permanent']) {
  const r = await token(appOf('B'), {
    grant_type: 'password',
    username: ds.users.alice.email,
    password: ds.users.alice.password,
    scope,
  });
  record(`alice@B scope=${scope}`, r);
  const t = r.body?.access_token;
  if (t) {
    record(`alice@B scope=${scope} /user app_id=B`, await lookup(t, { app_id: appOf('B').id }));
    record(
      `alice@B scope=${scope} /user app_id=B GET /stock`,
      await lookup(t, { app_id: appOf('B').id, action: 'GET', resource: '/stock' }),
    );
    record(`alice@B scope=${scope} /user app_id=A`, await lookup(t, { app_id: appOf('A').id }));
  }
}
{
  const r = await token(appOf('B'), { grant_type: 'client_credentials', scope: 'jwt' });
  record('client@B scope=jwt', r);
  if (r.body?.access_token)
    record('client@B scope=jwt /user app_id=B', await lookup(r.body.access_token, { app_id: appOf('B').id }));
}
{
  const r = await token(appOf('A'), {
    grant_type: 'password',
    username: ds.users.alice.email,
    password: ds.users.alice.password,
    scope: 'jwt',
  });
  record('alice@A scope=jwt', r);
}

// Agents
for (const key of ['A', 'B']) {
  const app = appOf(key);
  for (const path of ['/v3/auth/tokens', '/v1/auth/tokens']) {
    record(
      `pep@${key} ${path}`,
      await call('POST', path, { json: { name: app.pep.id, password: app.pep.password } }),
    );
  }
  record(
    `pep@${key} wrong-password`,
    await call('POST', '/v3/auth/tokens', { json: { name: app.pep.id, password: `${app.pep.password}x` } }),
  );
  const r = await token(app, { grant_type: 'password', username: app.iot.id, password: app.iot.password });
  record(`iot@${key} password-grant`, r);
  if (r.body?.access_token) {
    record(`iot@${key} /user`, await lookup(r.body.access_token));
    record(`iot@${key} /user app_id=${key}`, await lookup(r.body.access_token, { app_id: app.id }));
    const other = key === 'A' ? 'B' : 'A';
    record(
      `iot@${key} /user app_id=${other}`,
      await lookup(r.body.access_token, { app_id: appOf(other).id }),
    );
    record(
      `iot@${key} /user app_id=${key} decision`,
      await lookup(r.body.access_token, {
        app_id: app.id,
        action: 'GET',
        resource: key === 'A' ? '/orders' : '/stock',
      }),
    );
  }
  const other = key === 'A' ? 'B' : 'A';
  record(
    `iot@${key} via ${other}'s client`,
    await token(appOf(other), { grant_type: 'password', username: app.iot.id, password: app.iot.password }),
  );
}

// /v1/applications/B as bob (Provider): jwt_secret, token_types
{
  const r = await call('POST', '/v1/auth/tokens', {
    json: { name: ds.users.bob.email, password: ds.users.bob.password },
  });
  const t = r.headers['x-subject-token'];
  if (t) {
    record('bob GET /v1/applications/B', await v1(t, `/v1/applications/${appOf('B').id}`));
    record('bob GET /v1/applications/A', await v1(t, `/v1/applications/${appOf('A').id}`));
    record(
      'bob GET /v1/applications/B/pep_proxies',
      await v1(t, `/v1/applications/${appOf('B').id}/pep_proxies`),
    );
    record(
      'bob GET /v1/applications/B/iot_agents',
      await v1(t, `/v1/applications/${appOf('B').id}/iot_agents`),
    );
    record('bob GET /v1/applications/B/roles', await v1(t, `/v1/applications/${appOf('B').id}/roles`));
    record('bob GET /v1/organizations/Beta/users', await v1(t, `/v1/organizations/${ds.orgs.Beta}/users`));
  }
  const ra = await call('POST', '/v1/auth/tokens', {
    json: { name: ds.users.alice.email, password: ds.users.alice.password },
  });
  const ta = ra.headers['x-subject-token'];
  if (ta) {
    record(
      'alice GET /v1/applications/A/trusted_applications',
      await v1(ta, `/v1/applications/${appOf('A').id}/trusted_applications`),
    );
    record(
      'alice GET /v1/applications/A/organizations',
      await v1(ta, `/v1/applications/${appOf('A').id}/organizations`),
    );
    record('alice GET /v1/applications/A/users', await v1(ta, `/v1/applications/${appOf('A').id}/users`));
    record(
      'alice GET /v1/applications/A/permissions',
      await v1(ta, `/v1/applications/${appOf('A').id}/permissions`),
    );
  }
}

out.tokens = tokens;
writeFileSync(outFile, JSON.stringify(out, null, 2));
console.error(`${Object.keys(out.probes).length} probes -> ${outFile}`);
