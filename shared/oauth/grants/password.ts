import {
  INVALID_CREDENTIALS,
  LOCKED_OUT,
  refusalDescription,
  verifyPassword,
} from '../../domain/accounts.js';
import { verifyAgent } from '../../domain/agents.js';
import { needsSecondFactor } from '../../domain/sign-in.js';
import { TWO_FACTOR_GRANT } from '../../domain/two-factor.js';
import { invalidGrant, invalidRequest } from '../../errors.js';
import { putTokens } from '../../store/tokens.js';
import { parseScope } from '../scope.js';
import { issueTokens } from '../tokens.js';
import { type Grant, type GrantContext, required } from './types.js';

/**
 * RFC 6749 §4.3: resource owner password credentials. The password check is the portal's own,
 * with the shared brute-force guard: after 5 failures in 15 minutes the account is locked and the
 * password is not checked. Every failure is the same invalid_grant, whether or not the email exists.
 */
export const password: Grant = {
  type: 'password',
  enabledBy: 'password',
  needs(form) {
    const username = required(form, 'username', invalidRequest).trim();
    required(form, 'password', invalidRequest);
    // Keyrock: `username` is a user's email or an IoT agent's id (getIdentity); ids have no `@`.
    return isIotAgentName(username) ? { iotAgent: username } : { email: username.toLowerCase() };
  },
  async handle({ db, form, client, read, issuer }) {
    const scope = parseScope(form.get('scope'));
    if (read.iotAgent) return iotAgentTokens({ db, form, client, read, issuer }, scope);
    // The login read with the client names the user, so whether it has a second factor is read
    // while bcrypt runs: no added latency.
    const loginUser = read.credentials?.login?.userId;
    const secondFactor = loginUser === undefined ? undefined : needsSecondFactor(db, loginUser);
    secondFactor?.catch(() => undefined);
    const check = await verifyPassword(db, form.get('username')!, form.get('password')!, read.credentials);
    // RFC 6749 §5.2: wrong credentials, a locked account and an unverified email are invalid_grant.
    if (!check.ok) throw invalidGrant(refusalDescription(check.reason));
    // A second factor cannot travel in this grant: refused, as Keycloak refuses it (docs/api.md).
    const twoFactor =
      check.userId === loginUser ? await secondFactor : await needsSecondFactor(db, check.userId);
    if (twoFactor) throw invalidGrant(TWO_FACTOR_GRANT);
    const minted = await issueTokens(
      { db, issuer },
      {
        client,
        userId: check.userId,
        scope,
        withRefresh: client.grantTypes.includes('refresh_token'),
      },
    );
    await putTokens(db, minted.records);
    return minted;
  },
};

const isIotAgentName = (username: string) => !username.includes('@');

/**
 * An IoT agent's password grant (Keyrock's getIdentity: the agent of this client with this id):
 * its password through the guard of its id; the token names the agent and no user, and GET /user
 * describes it as Keyrock does (shared/domain/lookups.ts). No refresh token: the agent holds its
 * password and asks again, and nothing can revoke an agent's grant chain by user.
 */
async function iotAgentTokens(context: GrantContext, scope: string | undefined) {
  const { db, form, client, read, issuer } = context;
  const check = await verifyAgent(
    db,
    'iot',
    form.get('username')!.trim(),
    form.get('password')!,
    read.iotAgent,
  );
  if (!check.ok) throw invalidGrant(check.reason === 'locked' ? LOCKED_OUT : INVALID_CREDENTIALS);
  // Another application's agent is no agent of this client (same answer as a wrong password).
  if (check.agent.clientId !== client.clientId) throw invalidGrant(INVALID_CREDENTIALS);
  // Opaque even for a `jwt` application: the token must name the agent, which the JWT's claims
  // (shared/oidc/access-token.ts) have no place for; GET /user reads it in one GetItem.
  const opaque = { ...client, accessTokenFormat: undefined };
  const minted = await issueTokens(
    { db, issuer },
    { client: opaque, iotAgentId: check.agent.id, scope, withRefresh: false },
  );
  await putTokens(db, minted.records);
  return minted;
}
