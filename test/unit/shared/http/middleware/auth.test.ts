import { beforeAll, describe, expect, it } from 'vitest';
import { sha256 } from '../../../../../shared/crypto.js';
import { requireAccessToken } from '../../../../../shared/domain/access-tokens.js';
import { AppError } from '../../../../../shared/errors.js';
import { invocation, startInvocation } from '../../../../../shared/http/context.js';
import { authenticate } from '../../../../../shared/http/middleware/auth.js';
import { event, type FakeDb, fakeDb, request } from '../../../support/fakes.js';

beforeAll(() => {
  process.env.IDM_TABLE_NAME = 'unit';
  process.env.IDM_INSECURE_COOKIES = 'true';
});

const future = () => Math.floor(Date.now() / 1000) + 3600;
const session = (csrf: string) => ({
  digest: sha256('sid'),
  userId: 7,
  csrfToken: csrf,
  expiresAt: future(),
});
const token = {
  digest: sha256('tok'),
  kind: 'access',
  clientId: 'c',
  appId: 1,
  grantId: 'g',
  expiresAt: future(),
};

function items() {
  return {
    [`SESSION#${sha256('sid')}|SESSION`]: session('csrf-1'),
    [`TOKEN#${sha256('tok')}|TOKEN`]: token,
  };
}

async function run(
  auth: Parameters<typeof authenticate>[0],
  e = event('GET', '/x'),
  db: FakeDb = fakeDb(items()),
) {
  const state = startInvocation(() => db, e, 'req-1');
  await authenticate(auth, auth === 'bearer' ? requireAccessToken : undefined).before!(request(e));
  return { state, db };
}

async function rejection(promise: Promise<unknown>): Promise<AppError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(AppError);
  return error as AppError;
}

describe('authenticate: bearer', () => {
  it('refuses a request without a token at once, with the bare challenge (RFC 6750 §3)', async () => {
    const error = await rejection(run('bearer'));
    expect(error).toMatchObject({ status: 401, headers: { 'www-authenticate': 'Bearer realm="gatehouse"' } });
  });

  it('refuses the token sent two ways at once (RFC 6750 §2)', async () => {
    const e = event('GET', '/user?access_token=tok', { authorization: 'Bearer tok' });
    expect(await rejection(run('bearer', e))).toMatchObject({ status: 400, code: 'invalid_request' });
  });

  it('hands over the value and the query, and reads the token once, when the function asks', async () => {
    const { state, db } = await run('bearer', event('GET', '/user?access_token=tok&app_id=c'));
    expect(state.context.bearer).toBe('tok');
    expect((state.context.query as Map<string, string>).get('app_id')).toBe('c');
    expect(db.sent).toHaveLength(0); // the function reads it with its own first read
    const token = state.context.token as () => Promise<unknown>;
    expect(await token()).toMatchObject({ clientId: 'c', appId: 1 });
    await token();
    expect(db.sent).toHaveLength(1);
  });

  it('refuses an unknown token when the function reads it', async () => {
    const { state } = await run('bearer', event('GET', '/user', { authorization: 'Bearer other' }));
    const token = state.context.token as () => Promise<unknown>;
    expect(await rejection(token())).toMatchObject({ code: 'invalid_token' });
  });
});

describe('authenticate: how a bearer route is built', () => {
  it('needs the token reader handed in (bearerEndpoint), so jose stays out of other bundles', () => {
    expect(() => authenticate('bearer')).toThrow(/bearerEndpoint/);
    expect(() => authenticate('session')).not.toThrow();
  });
});

describe('authenticate: session', () => {
  const cookie = { cookie: 'gatehouse_session=sid' };

  it('refuses a request without a live session with 401', async () => {
    expect(await rejection(run('session', event('GET', '/api/applications')))).toMatchObject({ status: 401 });
  });

  it('lets a safe method through without the CSRF token', async () => {
    const { state } = await run('session', event('GET', '/api/applications', cookie));
    expect(state.context.session).toMatchObject({ userId: 7 });
  });

  it('refuses a state-changing method without the session’s CSRF token (403)', async () => {
    const missing = await rejection(run('session', event('POST', '/api/applications', cookie)));
    expect(missing).toMatchObject({ status: 403 });
    const wrong = event('POST', '/api/applications', { ...cookie, 'x-csrf-token': 'csrf-2' });
    expect(await rejection(run('session', wrong))).toMatchObject({ status: 403 });
    const right = event('DELETE', '/api/session', { ...cookie, 'x-csrf-token': 'csrf-1' });
    expect((await run('session', right)).state.context.session).toMatchObject({ userId: 7 });
  });
});

describe('authenticate: optional-session and none', () => {
  it('hands over the session read as a promise, undefined without a cookie', async () => {
    const signedIn = await run(
      'optional-session',
      event('GET', '/oauth2/authorize', { cookie: 'gatehouse_session=sid' }),
    );
    expect(await signedIn.state.context.session).toMatchObject({ userId: 7 });
    const anonymous = await run('optional-session', event('GET', '/oauth2/authorize'));
    expect(await anonymous.state.context.session).toBeUndefined();
  });

  it('reads nothing for a public route', async () => {
    const e = event('GET', '/v2/ServiceProviderConfigs');
    const { db } = await run('none', e);
    expect(db.sent).toEqual([]);
    expect(invocation(e)?.context.session).toBeUndefined();
  });
});
