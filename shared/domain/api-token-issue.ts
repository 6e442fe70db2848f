import { randomToken, sha256 } from '../crypto.js';
import { tooMany, unauthorized } from '../errors.js';
import { putApiToken, putPepToken } from '../store/api-tokens.js';
import type { Db } from '../store/db.js';
import { nowSeconds } from '../time.js';
import { LOCKED_OUT, UNVERIFIED, verifyPassword } from './accounts.js';
import { verifyAgent } from './agents.js';
import { apiTokenSecondFactor } from './api-token-two-factor.js';
import {
  type ApiTokenMethod,
  findLive,
  findLivePep,
  INVALID_CREDENTIALS,
  INVALID_PEP_CREDENTIALS,
  type IssuedApiToken,
  isPepTokenValue,
  type TokenCredentials,
} from './api-tokens.js';

/*
 * Issuing an API token checks a password (bcrypt), so it lives apart from the token check every
 * /v1 route runs: the lookups' bundles stay free of bcrypt.
 */

type Identity = { kind: 'user'; userId: number } | { kind: 'pep'; pepProxyId: string };

const same = (a: Identity, b: Identity) =>
  a.kind === 'user'
    ? b.kind === 'user' && a.userId === b.userId
    : b.kind === 'pep' && a.pepProxyId === b.pepProxyId;

/**
 * `name` + `password`: a user's email, or a PEP proxy's id (Keyrock's search_pep_or_user looks
 * in both; an email has an `@`, a PEP proxy id never does). The proxy's password goes through the
 * guard of its id (domain/agents.ts), a user's through the portal's sign-in check.
 */
async function byPassword(db: Db, name: string, password: string): Promise<Identity> {
  if (!name.includes('@')) {
    const check = await verifyAgent(db, 'pep', name, password);
    if (!check.ok) {
      if (check.reason === 'locked') throw tooMany(LOCKED_OUT);
      throw unauthorized(INVALID_PEP_CREDENTIALS);
    }
    return { kind: 'pep', pepProxyId: check.agent.id };
  }
  const check = await verifyPassword(db, name, password);
  if (!check.ok) {
    if (check.reason === 'locked') throw tooMany(LOCKED_OUT);
    throw unauthorized(check.reason === 'unverified' ? UNVERIFIED : INVALID_CREDENTIALS);
  }
  return { kind: 'user', userId: check.userId };
}

/** `token`: a live token names its owner, a user or a PEP proxy. */
async function byToken(db: Db, value: string): Promise<Identity> {
  if (isPepTokenValue(value)) {
    const found = await findLivePep(db, value);
    if (!found) throw unauthorized(INVALID_CREDENTIALS);
    if (found.expired) throw unauthorized('Token has expired');
    return { kind: 'pep', pepProxyId: found.token.pepProxyId };
  }
  const found = await findLive(db, value);
  if (!found) throw unauthorized(INVALID_CREDENTIALS);
  if (found.expired) throw unauthorized('Token has expired');
  return { kind: 'user', userId: found.caller.user.id };
}

/**
 * POST /v1/auth/tokens (and /v3/auth/tokens, where Keyrock's PEP proxy signs in): a new token for
 * the user or PEP proxy a name and password (through the brute-force guard) or an existing live
 * token identify; both given must name the same one. Every failure is a 401, as in Keyrock, so
 * the answer never says whether an email or id exists; a locked account is 429, as at sign-in.
 */
export async function issueApiToken(
  db: Db,
  credentials: TokenCredentials,
  ttl: number,
): Promise<IssuedApiToken> {
  const methods: ApiTokenMethod[] = [];
  let who: Identity | undefined;
  if (credentials.name !== undefined && credentials.password !== undefined) {
    methods.push('password');
    who = await byPassword(db, credentials.name, credentials.password);
    // An account with two-factor on never gets a token for its password alone (docs/api.md).
    if (who.kind === 'user') {
      const second = await apiTokenSecondFactor(db, who.userId, credentials.name, credentials.code);
      if (second) methods.push(second);
    }
  }
  if (credentials.token !== undefined) {
    methods.push('token');
    const owner = await byToken(db, credentials.token);
    if (who !== undefined && !same(who, owner)) throw unauthorized('Token not correspond to user');
    who = owner;
  }
  if (who === undefined) throw unauthorized(INVALID_CREDENTIALS);
  const expiresAt = nowSeconds() + ttl;
  if (who.kind === 'pep') {
    const value = `pep_${randomToken(32)}`;
    await putPepToken(db, { digest: sha256(value), pepProxyId: who.pepProxyId, expiresAt, methods });
    return { value, expiresAt, methods };
  }
  const value = `${who.userId.toString(36)}.${randomToken(32)}`;
  await putApiToken(db, { digest: sha256(value), userId: who.userId, expiresAt, methods });
  return { value, expiresAt, methods };
}
