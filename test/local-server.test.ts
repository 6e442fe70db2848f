import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import {
  createServer,
  type IncomingHttpHeaders,
  type OutgoingHttpHeaders,
  request,
  type Server,
} from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toEvent, writeResult } from '../local/event.js';
import type { HttpEvent, HttpResult } from '../shared/http/types.js';
import { startService, type TestService } from './support/service.js';

interface Reply {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

/** A raw HTTP request (fetch normalizes paths and refuses GET bodies, which these tests need). */
function send(
  base: string,
  path: string,
  options: { method?: string; headers?: OutgoingHttpHeaders; body?: Buffer | string } = {},
): Promise<Reply> {
  const url = new URL(base);
  return new Promise((resolve, reject) => {
    const req = request(
      { host: url.hostname, port: url.port, path, method: options.method ?? 'GET', headers: options.headers },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }),
        );
      },
    );
    req.on('error', reject);
    req.end(options.body);
  });
}

function listen(server: Server): Promise<string> {
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      resolve(`http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`);
    }),
  );
}

/**
 * The translation on its own: a server that turns each request into the payload 2.0 event with
 * the local server's own functions and answers with what the test's handler returns.
 */
let respond: (event: HttpEvent) => HttpResult;
let translator: Server;
let translatorUrl: string;

let service: TestService;
let portal: string;

beforeAll(async () => {
  translator = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const event = toEvent(req, Buffer.concat(chunks), { method: 'POST', path: '/echo/{id}' }, { id: '7' });
      writeResult(res, respond(event));
    });
  });
  translatorUrl = await listen(translator);

  // A portal folder with a secret next to it, to prove the static server stays inside.
  const root = mkdtempSync(join(tmpdir(), 'gatehouse-portal-'));
  portal = join(root, 'dist');
  mkdirSync(portal);
  writeFileSync(join(portal, 'index.html'), '<!doctype html><title>portal</title>');
  writeFileSync(join(portal, 'app.js'), 'console.log(1)');
  writeFileSync(join(root, 'secret.txt'), 'TOP SECRET');
  service = await startService();
  // startService serves portal/dist; a second local server serves our folder on the same table.
  const { createLocalServer } = await import('../local/server.js');
  portalServer = createLocalServer({ portalDir: portal, logoBucket: service.bucket });
  portalUrl = await listen(portalServer);
});

let portalServer: Server;
let portalUrl: string;

afterAll(async () => {
  translator.close();
  portalServer.closeAllConnections();
  portalServer.close();
  await service.close();
});

const echo = (event: HttpEvent): HttpResult => ({
  statusCode: 200,
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify(event),
});

describe('request → payload 2.0 event', () => {
  it('keeps the raw query string and joins repeated keys in queryStringParameters', async () => {
    respond = echo;
    const reply = await send(translatorUrl, '/echo/7?a=1&b=x%20y&a=2&empty=', { method: 'POST' });
    const event = JSON.parse(reply.body.toString()) as HttpEvent;
    expect(event).toMatchObject({
      version: '2.0',
      routeKey: 'POST /echo/{id}',
      rawPath: '/echo/7',
      rawQueryString: 'a=1&b=x%20y&a=2&empty=',
      queryStringParameters: { a: '1,2', b: 'x y', empty: '' },
      pathParameters: { id: '7' },
      requestContext: { http: { method: 'POST', path: '/echo/7' }, stage: '$default' },
      isBase64Encoded: false,
    });
    expect(event.requestContext.requestId).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('lower-cases header names, joins repeated headers with commas and moves cookies to `cookies`', async () => {
    respond = echo;
    const reply = await send(translatorUrl, '/echo/7', {
      method: 'POST',
      headers: { 'X-Multi': ['one', 'two'], Cookie: 'a=1; b=two=2', 'X-Single': 'v' },
    });
    const event = JSON.parse(reply.body.toString()) as HttpEvent;
    expect(event.headers['x-multi']).toBe('one,two');
    expect(event.headers['x-single']).toBe('v');
    expect(event.headers.cookie).toBeUndefined();
    expect(event.cookies).toEqual(['a=1', 'b=two=2']);
    expect(event.queryStringParameters).toBeUndefined();
  });

  it('passes text bodies as text and binary bodies as base64, and back again', async () => {
    respond = echo;
    const json = await send(translatorUrl, '/echo/7', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"ü":1}',
    });
    expect(JSON.parse(json.body.toString())).toMatchObject({ body: '{"ü":1}', isBase64Encoded: false });

    const bytes = Buffer.from([0, 255, 1, 254, 0x89, 0x50, 0x4e, 0x47, 10, 13]);
    respond = (event) => {
      expect(event.isBase64Encoded).toBe(true);
      expect(Buffer.from(event.body ?? '', 'base64').equals(bytes)).toBe(true);
      return {
        statusCode: 201,
        headers: { 'content-type': 'application/octet-stream' },
        body: event.body ?? '',
        isBase64Encoded: true,
      };
    };
    const binary = await send(translatorUrl, '/echo/7', {
      method: 'POST',
      headers: { 'content-type': 'image/png' },
      body: bytes,
    });
    expect(binary.status).toBe(201);
    expect(binary.body.equals(bytes)).toBe(true);
    expect(binary.headers['content-length']).toBe(String(bytes.length));
  });

  it('writes each of the result’s cookies as its own Set-Cookie header', async () => {
    respond = () => ({
      statusCode: 302,
      headers: { location: '/next' },
      cookies: ['a=1; Path=/; HttpOnly', 'b=2; Path=/; Max-Age=0'],
      body: '',
    });
    const reply = await send(translatorUrl, '/echo/7', { method: 'POST' });
    expect(reply.status).toBe(302);
    expect(reply.headers.location).toBe('/next');
    expect(reply.headers['set-cookie']).toEqual(['a=1; Path=/; HttpOnly', 'b=2; Path=/; Max-Age=0']);
  });
});

describe('the local server', () => {
  it('runs the route table’s handler', async () => {
    const reply = await send(service.url, '/v2/ServiceProviderConfigs');
    expect(reply.status).toBe(200);
    expect(JSON.parse(reply.body.toString())).toMatchObject({ totalUsers: '0' });
  });

  it('refuses a body over 10 MB with 413 before the handler runs', async () => {
    const big = Buffer.alloc(10 * 1024 * 1024 + 1, 97);
    const reply = await send(service.url, '/v2/ServiceProviderConfigs', {
      // Node sends a GET body only with an explicit length (no chunked encoding for GET).
      headers: { 'content-type': 'text/plain', 'content-length': big.length },
      body: big,
    });
    expect(reply.status).toBe(413);
    expect(JSON.parse(reply.body.toString())).toEqual({
      error: 'invalid_request',
      error_description: 'The request body is larger than 10 MB.',
    });
  });

  it('serves portal files, falls back to index.html for pages, and 404s the rest', async () => {
    const script = await send(portalUrl, '/app.js');
    expect(script.status).toBe(200);
    expect(script.headers['content-type']).toContain('text/javascript');
    const page = await send(portalUrl, '/applications/3', { headers: { accept: 'text/html' } });
    expect(page.status).toBe(200);
    expect(page.body.toString()).toContain('<title>portal</title>');
    const missing = await send(portalUrl, '/missing.js', { headers: { accept: 'text/html' } });
    expect(missing.status).toBe(404);
  });

  it('never serves a file outside the portal folder', async () => {
    for (const path of ['/../secret.txt', '/%2e%2e/secret.txt', '/..%2fsecret.txt', '/%2e%2e%2fsecret.txt']) {
      const reply = await send(portalUrl, path, { headers: { accept: 'text/html' } });
      expect(reply.body.toString(), path).not.toContain('TOP SECRET');
      expect(reply.status, path).toBe(404);
    }
  });

  it('answers 405 with Allow for a known path and another method, 404 for unknown paths', async () => {
    const wrong = await send(service.url, '/v2/ServiceProviderConfigs', { method: 'DELETE' });
    expect(wrong.status).toBe(405);
    expect(wrong.headers.allow).toBe('GET');
    const unknown = await send(service.url, '/no/such/thing.json');
    expect(unknown.status).toBe(404);
    expect(JSON.parse(unknown.body.toString())).toMatchObject({ error: 'not_found' });
  });

  it('answers unknown paths and methods of Keyrock’s API (/v1, /v3) in Keyrock’s error shape', async () => {
    const unknown = await send(service.url, '/v1/no_such_resource');
    expect(unknown.status).toBe(404);
    expect(JSON.parse(unknown.body.toString())).toEqual({
      error: { message: 'Nothing is served at GET /v1/no_such_resource.', code: 404, title: 'Not Found' },
    });
    const wrong = await send(service.url, '/v1/auth/tokens', { method: 'PUT' });
    expect(wrong.status).toBe(405);
    expect(wrong.headers.allow).toContain('POST');
    expect(JSON.parse(wrong.body.toString())).toMatchObject({
      error: { code: 405, title: 'Method Not Allowed' },
    });
  });
});
