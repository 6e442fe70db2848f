import { nowSeconds } from '../time.js';
import { type AgentCredentials, agentCredentialKeys, agentCredentialsFrom } from './agents.js';
import { type Client, toClient } from './applications.js';
import type { Db } from './db.js';
import { type Key, keys } from './keys.js';
import { findItem } from './ops.js';
import { type CodeRecord, getConsistent, type TokenRecord, toCode, toToken } from './tokens.js';
import { type Credentials, credentialKeys, credentialsFrom, toUser, type User } from './users.js';

/**
 * What a token or revocation request needs besides its client, by digest or email: each grant
 * names its own (shared/oauth/grants), and the store reads them with the client in ONE strongly
 * consistent BatchGetItem: a code written a millisecond ago, or a token revoked a millisecond
 * ago, is seen as it is now.
 */
export interface TokenRequestNeeds {
  /** SHA-256 digest of an authorization code. */
  code?: string | undefined;
  /** SHA-256 digest of a refresh or access token. */
  token?: string | undefined;
  /** An email whose login and brute-force guard a password check needs. */
  email?: string | undefined;
  /** A user whose profile is wanted (introspection's `username`). */
  userId?: number | undefined;
  /** A JWT access token's `jti`, to see whether it was revoked (the deny-list, keys.ts 23). */
  jti?: string | undefined;
  /** An IoT agent's id (password grant, Keyrock's `username` = the agent's id), with its guard. */
  iotAgent?: string | undefined;
}

export interface TokenRequestRecords {
  client: Client | undefined;
  code: CodeRecord | undefined;
  token: TokenRecord | undefined;
  credentials: Credentials | undefined;
  user: User | undefined;
  /** The `jti` asked about is on the deny-list and not yet past its expiry. */
  jtiRevoked: boolean;
  /** The IoT agent asked about and its brute-force guard. */
  iotAgent: AgentCredentials | undefined;
}

export async function readTokenRequest(
  db: Db,
  clientId: string,
  needs: TokenRequestNeeds,
): Promise<TokenRequestRecords> {
  const wanted: Key[] = [keys.client(clientId)];
  if (needs.code !== undefined) wanted.push(keys.code(needs.code));
  if (needs.token !== undefined) wanted.push(keys.token(needs.token));
  if (needs.email !== undefined) wanted.push(...credentialKeys(needs.email));
  if (needs.userId !== undefined) wanted.push(keys.user(needs.userId));
  if (needs.jti !== undefined) wanted.push(keys.revokedJti(needs.jti));
  if (needs.iotAgent !== undefined) wanted.push(...agentCredentialKeys('iot', needs.iotAgent));
  const items = await getConsistent(db, wanted);
  const client = findItem(items, keys.client(clientId));
  const code = needs.code !== undefined ? findItem(items, keys.code(needs.code)) : undefined;
  const token = needs.token !== undefined ? findItem(items, keys.token(needs.token)) : undefined;
  const userItem = needs.userId !== undefined ? findItem(items, keys.user(needs.userId)) : undefined;
  // TTL deletes lazily: an entry past its expiry is for a token that is dead anyway.
  const denied = needs.jti !== undefined ? findItem(items, keys.revokedJti(needs.jti)) : undefined;
  return {
    client: client ? toClient(client) : undefined,
    code: code ? toCode(code) : undefined,
    token: token ? toToken(token) : undefined,
    credentials: needs.email !== undefined ? credentialsFrom(items, needs.email) : undefined,
    user: userItem ? toUser(userItem) : undefined,
    jtiRevoked: denied !== undefined && Number(denied.expiresAt) > nowSeconds(),
    iotAgent: needs.iotAgent !== undefined ? agentCredentialsFrom(items, 'iot', needs.iotAgent) : undefined,
  };
}
