import { conflict, notFound } from '../errors.js';
import { isoNow } from '../time.js';
import type { Db } from './db.js';
import { type GuardState, guardState } from './guard.js';
import { type AgentKind, type Key, keys } from './keys.js';
import {
  batchGet,
  findItem,
  getItem,
  type Item,
  queryPartition,
  TransactionFailed,
  transact,
  writtenIf,
} from './ops.js';

export type { AgentKind } from './keys.js';

/**
 * Keyrock's non-human credentials of an application: its PEP proxy (one at most,
 * controllers/api/pep_proxies.js) and its IoT agents (controllers/api/iot_agents.js). Each is
 * one record under its own id (sign-in knows only the id) and one pointer in the application's
 * partition (listing, the one-PEP-proxy rule, deletion with the application), written together.
 * `passwordHash` is bcrypt, or Keyrock's own HMAC-SHA1 form for credentials moved from Keyrock
 * (domain/passwords.ts), which becomes bcrypt on the first successful sign-in.
 */
export interface Agent {
  kind: AgentKind;
  id: string;
  appId: number;
  /** The application's OAuth client id: Keyrock's `oauth_client_id`. */
  clientId: string;
  passwordHash: string;
  createdAt: string;
}

export interface NewAgent {
  id: string;
  appId: number;
  clientId: string;
  /** Already hashed: bcrypt, or `keyrockHash(salt, digest)` for one imported from Keyrock. */
  passwordHash: string;
}

function toAgent(item: Item): Agent {
  return {
    kind: item.kind as AgentKind,
    id: item.id as string,
    appId: item.appId as number,
    clientId: item.clientId as string,
    passwordHash: item.passwordHash as string,
    createdAt: item.createdAt as string,
  };
}

async function putAgent(db: Db, kind: AgentKind, input: NewAgent): Promise<Agent> {
  const agent: Agent = { kind, ...input, createdAt: isoNow() };
  const absent = 'attribute_not_exists(PK)';
  try {
    await transact(db, [
      // The application must exist: a credential of a deleted application would outlive it.
      {
        ConditionCheck: {
          TableName: db.table,
          Key: keys.application(input.appId),
          ConditionExpression: 'attribute_exists(PK)',
        },
      },
      {
        Put: {
          TableName: db.table,
          Item: { ...keys.agent(kind, input.id), type: 'agent', ...agent },
          ConditionExpression: absent,
        },
      },
      {
        Put: {
          TableName: db.table,
          Item: {
            ...keys.appAgent(input.appId, kind, input.id),
            type: 'app-agent',
            kind,
            id: input.id,
            clientId: input.clientId,
            // What deleting the application deletes with the pointer (store/applications.ts).
            agentKey: keys.agent(kind, input.id),
          },
          ConditionExpression: absent,
        },
      },
    ]);
  } catch (error) {
    if (error instanceof TransactionFailed) {
      if (error.failedAt(0)) throw notFound(`Application ${input.appId} does not exist.`);
      if (error.failedAt(1)) throw conflict(`The id ${input.id} is taken.`, 'id');
      if (error.failedAt(2)) throw conflict('Pep Proxy already registered');
    }
    throw error;
  }
  return agent;
}

/**
 * The application's PEP proxy. 409 when the application already has one (Keyrock allows one per
 * application) or the id is taken; 404 when the application does not exist.
 */
export const putPepProxy = (db: Db, input: NewAgent): Promise<Agent> => putAgent(db, 'pep', input);

/** An IoT agent of the application. 409 when the id is taken; 404 without the application. */
export const putIotAgent = (db: Db, input: NewAgent): Promise<Agent> => putAgent(db, 'iot', input);

/** An agent by its id (one strongly consistent GetItem: a password reset a moment ago counts). */
export async function getAgent(db: Db, kind: AgentKind, id: string): Promise<Agent | undefined> {
  const item = await getItem(db, keys.agent(kind, id), true);
  return item ? toAgent(item) : undefined;
}

/** The id of the application's PEP proxy, if it has one. */
export async function pepProxyIdOf(db: Db, appId: number): Promise<string | undefined> {
  const item = await getItem(db, keys.appAgent(appId, 'pep', ''), true);
  return item ? (item.id as string) : undefined;
}

/** The ids of the application's IoT agents. */
export async function iotAgentIdsOf(db: Db, appId: number): Promise<string[]> {
  const items = await queryPartition(db, keys.appPartition(appId), keys.appIotAgentsPrefix);
  return items.map((i) => i.id as string);
}

/**
 * Replaces an agent's password hash. With `from`, only if the stored hash is still that one (the
 * upgrade of a Keyrock hash to bcrypt after a sign-in must not undo a reset made meanwhile);
 * returns whether it was written.
 */
export async function setAgentPassword(
  db: Db,
  kind: AgentKind,
  id: string,
  passwordHash: string,
  from?: string,
): Promise<boolean> {
  return writtenIf(
    db.doc.update({
      TableName: db.table,
      Key: keys.agent(kind, id),
      UpdateExpression: 'SET passwordHash = :h',
      ConditionExpression: from === undefined ? 'attribute_exists(PK)' : 'passwordHash = :from',
      ExpressionAttributeValues: { ':h': passwordHash, ...(from === undefined ? {} : { ':from': from }) },
    }),
  );
}

/** Deletes an agent and its pointer together; false when it did not exist. */
export async function deleteAgent(db: Db, kind: AgentKind, appId: number, id: string): Promise<boolean> {
  try {
    await transact(db, [
      {
        Delete: {
          TableName: db.table,
          Key: keys.agent(kind, id),
          ConditionExpression: 'attribute_exists(PK)',
        },
      },
      { Delete: { TableName: db.table, Key: keys.appAgent(appId, kind, id) } },
    ]);
    return true;
  } catch (error) {
    if (error instanceof TransactionFailed && error.failedAt(0)) return false;
    throw error;
  }
}

/** What an agent's sign-in reads, with whatever else the caller reads: the agent and its guard. */
export function agentCredentialKeys(kind: AgentKind, id: string): Key[] {
  return [keys.agent(kind, id), keys.guard(guardSubject(kind, id))];
}

/**
 * The brute-force guard of an agent is the guard item of its id (shared/store/guard.ts): agent
 * ids carry no `@`, so they never meet an email's counter.
 */
export const guardSubject = (kind: AgentKind, id: string) => `${kind}:${id}`;

export interface AgentCredentials {
  agent: Agent | undefined;
  guard: GuardState | undefined;
}

export function agentCredentialsFrom(items: Item[], kind: AgentKind, id: string): AgentCredentials {
  const agent = findItem(items, keys.agent(kind, id));
  return {
    agent: agent ? toAgent(agent) : undefined,
    guard: guardState(findItem(items, keys.guard(guardSubject(kind, id)))),
  };
}

/** An agent and its guard in one strongly consistent BatchGetItem. */
export async function agentCredentials(db: Db, kind: AgentKind, id: string): Promise<AgentCredentials> {
  return agentCredentialsFrom(await batchGet(db, agentCredentialKeys(kind, id), true), kind, id);
}
