// CPU per request of Keyrock and of Gatehouse on the same machine, measured from outside: the
// same two workloads a PEP proxy deployment runs most (a client-credentials grant, and GET /user
// with a Permit decision), 10 s of autocannon per run, alternating between the two servers for
// three rounds, with each process's CPU read from /proc/<pid>/stat (utime + stime) around every
// run: the identity service's process and its database's (MariaDB; DynamoDB Local). One
// connection by default; CONNECTIONS=1,10 repeats the rounds at each level (with ten, neither
// server's process sits idle between a request and its database's answer).
// A non-200 answer stops the run: an error's cost is not a request's.
//
//   node side-by-side.mjs <dataset.json> <keyrock url> <keyrock pid> <mariadb pid> \
//                         <gatehouse url> <gatehouse pid> <dynamodb-local pid>
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const require = createRequire(fileURLToPath(new URL('../../package.json', import.meta.url)));
const autocannon = require('autocannon');

const [datasetFile, krUrl, krPid, mariaPid, ghUrl, ghPid, dynamoPid] = process.argv.slice(2);
if (!dynamoPid) {
  console.error(
    'usage: node side-by-side.mjs <dataset.json> <kr url> <kr pid> <db pid> <gh url> <gh pid> <db pid>',
  );
  process.exit(2);
}
const ds = JSON.parse(readFileSync(datasetFile, 'utf8'));
const targets = {
  Keyrock: { url: krUrl, service: krPid, db: mariaPid },
  Gatehouse: { url: ghUrl, service: ghPid, db: dynamoPid },
};
const TICK_MS = 10; // USER_HZ is 100 on Linux
const levels = (process.env.CONNECTIONS ?? '1').split(',').map(Number);
if (levels.some((n) => !Number.isInteger(n) || n < 1 || n > 100)) {
  console.error('CONNECTIONS: a comma-separated list of whole numbers from 1 to 100');
  process.exit(2);
}

/** utime + stime of a process, in clock ticks (proc(5), fields 14 and 15). */
function ticks(pid) {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return Number(fields[11]) + Number(fields[12]);
}

const app = ds.apps.A;
const basic = `Basic ${Buffer.from(`${app.id}:${app.secret}`).toString('base64')}`;
const form = { authorization: basic, 'content-type': 'application/x-www-form-urlencoded' };

// Bob holds Viewer in A, which permits GET /orders: the decision is Permit on both sides.
for (const t of Object.values(targets)) {
  const res = await fetch(`${t.url}/oauth2/token`, {
    method: 'POST',
    headers: form,
    body: new URLSearchParams({
      grant_type: 'password',
      username: ds.users.bob.email,
      password: ds.users.bob.password,
    }),
  });
  t.token = (await res.json()).access_token;
  if (!t.token) throw new Error(`no token for bob from ${t.url} (${res.status})`);
}
const workloads = {
  'POST /oauth2/token client_credentials': (t) => ({
    url: `${t.url}/oauth2/token`,
    method: 'POST',
    headers: form,
    body: 'grant_type=client_credentials',
  }),
  'GET /user with a decision (Permit)': (t) => ({
    url: `${t.url}/user?${new URLSearchParams({ access_token: t.token, app_id: app.id, action: 'GET', resource: '/orders' })}`,
  }),
};

const results = {};
for (const connections of levels) {
  for (let round = 1; round <= 3; round++) {
    for (const [workload, request] of Object.entries(workloads)) {
      for (const [name, t] of Object.entries(targets)) {
        const service0 = ticks(t.service);
        const db0 = ticks(t.db);
        let wrong = 0;
        const run = await autocannon({
          ...request(t),
          connections,
          duration: 10,
          setupClient: (client) =>
            client.on('response', (status) => {
              if (status !== 200) wrong++;
            }),
        });
        const n = run.requests.total;
        if (wrong > 0) throw new Error(`${name}, ${workload}: ${wrong} answers were not 200`);
        const row = {
          rps: run.requests.average,
          service: ((ticks(t.service) - service0) * TICK_MS) / n,
          db: ((ticks(t.db) - db0) * TICK_MS) / n,
        };
        const key = `${workload}\u0000${connections}`;
        results[key] ??= {};
        results[key][name] ??= [];
        results[key][name].push(row);
        console.error(
          `${connections} connection(s), round ${round}, ${workload}, ${name}: ${n} answers, ${row.service.toFixed(2)} ms service CPU`,
        );
      }
    }
  }
}

const list = (rows, key, digits = 2) => rows.map((r) => r[key].toFixed(digits)).join(' / ');
console.log(
  '| Request | Connections | Server | Service CPU ms/request (rounds 1 / 2 / 3) | Database CPU ms/request | Requests/s |',
);
console.log('| --- | ---: | --- | --- | --- | --- |');
for (const [key, byServer] of Object.entries(results)) {
  const [workload, connections] = key.split('\u0000');
  for (const [name, rows] of Object.entries(byServer)) {
    console.log(
      `| ${workload} | ${connections} | ${name} | ${list(rows, 'service')} | ${list(rows, 'db')} | ${list(rows, 'rps', 0)} |`,
    );
  }
}
