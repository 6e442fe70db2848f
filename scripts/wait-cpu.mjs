/**
 * What waiting costs on this machine: a bare Node HTTP server (no Gatehouse code) that makes one
 * call to an upstream HTTP server per request, driven by autocannon at one connection, with the
 * upstream answering after 0, 1, 2 and 5 ms. The work per request is the same in every run; only
 * the wait changes. Prints the server's CPU time per request (`process.cpuUsage()` read inside it).
 *
 * Why: the local runtime's service CPU at one connection (docs/benchmarks.md, section 4) includes
 * whatever the process pays while it waits for DynamoDB Local, which answers in 1–2 ms. This shows
 * that cost apart from any code of ours. Usage: `node scripts/wait-cpu.mjs`.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import http from 'node:http';
import autocannon from 'autocannon';

const role = process.argv[2];

if (role === 'upstream') {
  // Answers every request after DELAY ms.
  const delay = Number(process.env.DELAY);
  const server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => (delay ? setTimeout(() => res.end('{}'), delay) : res.end('{}')));
  });
  server.listen(0, '127.0.0.1', () => console.log(server.address().port));
} else if (role === 'service') {
  // One kept-alive call to the upstream per request, then a small JSON answer.
  const upstream = Number(process.env.UPSTREAM_PORT);
  const agent = new http.Agent({ keepAlive: true });
  const call = () =>
    new Promise((resolve, reject) => {
      const request = http.request(
        { host: '127.0.0.1', port: upstream, method: 'POST', path: '/', agent },
        (r) => {
          r.resume();
          r.on('end', resolve);
        },
      );
      request.on('error', reject);
      request.end('{"TableName":"t"}');
    });
  const server = http.createServer(async (req, res) => {
    if (req.url === '/cpu') {
      const { user, system } = process.cpuUsage();
      res.end(String(user + system));
      return;
    }
    req.resume();
    await once(req, 'end');
    await call();
    res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
  });
  server.listen(0, '127.0.0.1', () => console.log(server.address().port));
} else {
  const start = async (child, env) => {
    const process_ = spawn(process.execPath, [new URL(import.meta.url).pathname, child], {
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const [data] = await once(process_.stdout, 'data');
    return { process: process_, port: Number(String(data).trim()) };
  };
  console.log('| Upstream answers after | Requests/s | Service CPU µs/request |');
  console.log('| ---: | ---: | ---: |');
  for (const delay of [0, 1, 2, 5]) {
    const upstream = await start('upstream', { DELAY: String(delay) });
    const service = await start('service', { UPSTREAM_PORT: String(upstream.port) });
    const url = `http://127.0.0.1:${service.port}`;
    const cpu = async () => Number(await (await fetch(`${url}/cpu`)).text());
    await autocannon({ url, connections: 1, duration: 1, method: 'POST', body: '{}' });
    const before = await cpu();
    const run = await autocannon({ url, connections: 1, duration: 5, method: 'POST', body: '{}' });
    const after = await cpu();
    if (run.non2xx > 0 || run.errors > 0) throw new Error(`${run.non2xx + run.errors} requests failed`);
    console.log(
      `| ${delay} ms | ${run.requests.average.toFixed(0)} | ${((after - before) / run.requests.total).toFixed(0)} |`,
    );
    service.process.kill();
    upstream.process.kill();
  }
}
