import { beforeAll, describe, expect, it } from 'vitest';
import { invalid } from '../../../../shared/errors.js';
import { endpoint } from '../../../../shared/http/handler.js';
import { json } from '../../../../shared/http/response.js';
import type { LambdaContext } from '../../../../shared/http/types.js';
import type { RouteFn } from '../../../../shared/routes.js';
import { event } from '../../support/fakes.js';

beforeAll(() => {
  process.env.IDM_TABLE_NAME = 'unit';
  process.env.IDM_INSECURE_COOKIES = 'true';
  process.env.IDM_LOG_LEVEL = 'SILENT';
});

const lambda = { awsRequestId: 'req-1' } as LambdaContext;

describe('endpoint: the route-driven handler factory', () => {
  it('refuses a function the route table does not list', () => {
    expect(() => endpoint('no-such-function' as RouteFn, async () => json(200, {}))).toThrow(/routes\.ts/);
  });

  it('applies the route’s CORS and security headers to answers and errors alike', async () => {
    const ok = await endpoint('oauth2-metadata', async () => json(200, { ok: true }))(
      event('GET', '/.well-known/oauth-authorization-server'),
      lambda,
    );
    expect(ok.statusCode).toBe(200);
    expect(ok.headers).toMatchObject({
      'access-control-allow-origin': '*',
      'x-content-type-options': 'nosniff',
    });
    const failed = await endpoint('oauth2-metadata', async () => {
      throw invalid('nope');
    })(event('GET', '/.well-known/oauth-authorization-server'), lambda);
    expect(failed.statusCode).toBe(400);
    expect(failed.headers).toMatchObject({ 'access-control-allow-origin': '*', 'x-frame-options': 'DENY' });
  });

  it('sends no CORS headers where the route has none, and keeps portal answers uncached', async () => {
    const res = await endpoint('api-users-create', async () => json(201, {}))(
      event('POST', '/api/users'),
      lambda,
    );
    expect(res.headers?.['access-control-allow-origin']).toBeUndefined();
    expect(res.headers?.['cache-control']).toBe('no-store');
  });

  it('renders errors in the route’s style: a page for a browser at /oauth2/authorize only', async () => {
    const failing = async () => {
      throw invalid('client_id is missing.');
    };
    const browser = { accept: 'text/html,application/xhtml+xml' };
    const page = await endpoint('oauth2-authorize', failing)(
      event('GET', '/oauth2/authorize', browser),
      lambda,
    );
    expect(page.headers?.['content-type']).toContain('text/html');
    const api = await endpoint('oauth2-token', failing)(event('POST', '/oauth2/token', browser), lambda);
    expect(api.headers?.['content-type']).toContain('application/json');
    expect(JSON.parse(api.body!)).toMatchObject({ error: 'invalid_request' });
  });

  it('hands an optional-session route the session read, and a signed-out one undefined', async () => {
    let seen: unknown = 'not called';
    await endpoint('api-session-get', async ({ session }) => {
      seen = await session;
      return json(200, {});
    })(event('GET', '/api/session'), lambda);
    expect(seen).toBeUndefined();
  });

  it('refuses a session route without a session before the function runs', async () => {
    let ran = false;
    const res = await endpoint('api-applications-list', async () => {
      ran = true;
      return json(200, {});
    })(event('GET', '/api/applications'), lambda);
    expect(res.statusCode).toBe(401);
    expect(ran).toBe(false);
  });
});
