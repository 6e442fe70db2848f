/**
 * Section 4's workloads: what autocannon sends through the local runtime, and what each answer
 * must be (bench/load-check.ts checks every one). Codes and refresh tokens are single-use, so
 * those workloads take pre-issued ones in turn.
 */
import type autocannon from 'autocannon';
import type { Expectation } from './answers.js';
import type { ServerInfo } from './server.js';
import { tokenResponse, userWithRoles } from './shapes.js';

export interface Workload {
  id: string;
  label: string;
  expect: Expectation;
  /** Why answers may be wrong that the answer itself cannot say (single-use values ran out). */
  note?: () => string | undefined;
  request(info: ServerInfo): autocannon.Request;
}

const tokenHeaders = (info: ServerInfo) => ({
  authorization: info.authorization,
  'content-type': 'application/x-www-form-urlencoded',
});

/**
 * Hands out single-use values in order; past the end, requests are refused (a wrong answer that
 * stops the run, with `note` saying why).
 */
function takeFrom(list: string[], what: string): { take: () => string; note: () => string | undefined } {
  let next = 0;
  return {
    take: () => list[next++] ?? 'exhausted',
    note: () => (next > list.length ? `the ${list.length} pre-issued ${what} ran out` : undefined),
  };
}

export function workloads(info: ServerInfo): Workload[] {
  const code = takeFrom(info.codes, 'codes');
  const refresh = takeFrom(info.refreshTokens, 'refresh tokens');
  const form = (fields: Record<string, string>) => new URLSearchParams(fields).toString();
  const user = `/user?access_token=${encodeURIComponent(info.userToken)}`;
  const userToken = { status: 200, shape: tokenResponse(true) };
  const userAnswer = (decision?: 'Permit') => ({
    status: 200,
    shape: userWithRoles({ id: info.userId, organizations: 1, ...(decision ? { decision } : {}) }),
  });
  return [
    {
      id: 'client_credentials',
      label: 'POST /oauth2/token client_credentials',
      expect: { status: 200, shape: tokenResponse(false) },
      request: (i) => ({
        method: 'POST',
        path: '/oauth2/token',
        headers: tokenHeaders(i),
        body: form({ grant_type: 'client_credentials' }),
      }),
    },
    {
      id: 'password',
      label: 'POST /oauth2/token password (bcrypt cost 10)',
      expect: userToken,
      request: (i) => ({
        method: 'POST',
        path: '/oauth2/token',
        headers: tokenHeaders(i),
        body: form({ grant_type: 'password', username: i.email, password: i.password }),
      }),
    },
    {
      id: 'authorization_code',
      label: 'POST /oauth2/token authorization_code (pre-issued codes)',
      expect: userToken,
      note: code.note,
      request: (i) => ({
        method: 'POST',
        path: '/oauth2/token',
        headers: tokenHeaders(i),
        setupRequest: (req: autocannon.Request) => ({
          ...req,
          body: form({ grant_type: 'authorization_code', code: code.take(), redirect_uri: i.callback }),
        }),
      }),
    },
    {
      id: 'refresh_token',
      label: 'POST /oauth2/token refresh_token (pre-issued, rotated)',
      expect: userToken,
      note: refresh.note,
      request: (i) => ({
        method: 'POST',
        path: '/oauth2/token',
        headers: tokenHeaders(i),
        setupRequest: (req: autocannon.Request) => ({
          ...req,
          body: form({ grant_type: 'refresh_token', refresh_token: refresh.take() }),
        }),
      }),
    },
    {
      id: 'user',
      label: 'GET /user',
      expect: userAnswer(),
      request: () => ({ method: 'GET', path: user }),
    },
    {
      id: 'user-decision',
      label: 'GET /user with a decision',
      expect: userAnswer('Permit'),
      request: (i) => ({ method: 'GET', path: `${user}&${i.decisionQuery}` }),
    },
  ];
}
