/**
 * Failures DynamoDB Local cannot be made to produce on demand, injected as an interceptor on the
 * handlers' own DynamoDB client (everything else still reaches DynamoDB Local): what the user and
 * the client application see when a write fails.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { db } from '../shared/store/db.js';
import type { User } from '../shared/store/users.js';
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

let service: TestService;
let alice: User;
let reg: Registered;
let removeFault: (() => void) | undefined;

beforeAll(async () => {
  service = await startService();
  alice = await newUser(service.db, 'alice');
  reg = await newApp(service.db, alice.id);
});
afterEach(() => {
  removeFault?.();
  removeFault = undefined;
});
afterAll(() => service.close());

/** Every call goes to DynamoDB Local as usual, except the operation made to fail. */
function failing(failed: 'PutItem' | 'TransactWriteItems') {
  removeFault = db().doc.client.use((operation, input, next) => {
    if (operation === failed) {
      throw Object.assign(new Error('Service unavailable'), { name: 'InternalServerError' });
    }
    return next(input);
  });
}

describe('storage failures', () => {
  it('/oauth2/authorize redirects server_error with the state when the code cannot be stored', async () => {
    const browser = await signedIn(service.db, alice.id);
    const params = {
      response_type: 'code',
      client_id: reg.app.clientId,
      redirect_uri: CALLBACK,
      state: 'st',
    };
    await authorizeLocation(service.url, params, browser); // approve while storage works
    failing('PutItem');
    const res = await fetch(`${service.url}/oauth2/authorize?${new URLSearchParams(params)}`, {
      redirect: 'manual',
      headers: { cookie: browser.cookie },
    });
    expect(res.status).toBe(302);
    const url = new URL(res.headers.get('location')!);
    expect(`${url.origin}${url.pathname}`).toBe(CALLBACK);
    expect(url.searchParams.get('error')).toBe('server_error');
    expect(url.searchParams.get('state')).toBe('st');
    expect(url.searchParams.has('code')).toBe(false);
  });

  it('the token endpoint answers a generic 500 with a request id, never a stack trace', async () => {
    failing('TransactWriteItems');
    const res = await postForm(
      `${service.url}/oauth2/token`,
      { grant_type: 'password', username: alice.email, password: PASSWORD },
      { authorization: basic(reg.app.clientId, reg.secret) },
    );
    expect(res.status).toBe(500);
    const body = (await res.json()) as Record<string, string>;
    expect(body.error).toBe('server_error');
    expect(body.request_id).toEqual(expect.any(String));
    expect(JSON.stringify(body)).not.toMatch(/Service unavailable|at .*\.ts/);
  });
});
