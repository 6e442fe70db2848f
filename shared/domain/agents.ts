import { randomUUID } from 'node:crypto';
import bcrypt from 'bcryptjs';
import { config } from '../config.js';
import { notFound } from '../errors.js';
import {
  type Agent,
  type AgentCredentials,
  type AgentKind,
  agentCredentials,
  deleteAgent,
  getAgent,
  guardSubject,
  iotAgentIdsOf,
  pepProxyIdOf,
  putIotAgent,
  putPepProxy,
  setAgentPassword,
} from '../store/agents.js';
import type { Db } from '../store/db.js';
import { clearFailures, isLocked, recordFailure } from '../store/guard.js';
import { DUMMY_HASH } from './accounts.js';
import { matchPassword } from './passwords.js';
import type { ApplicationAccess } from './permissions-policy.js';

/**
 * PEP proxies and IoT agents of an application, as Keyrock manages them through /v1
 * (controllers/api/pep_proxies.js, iot_agents.js): the id and the password are Keyrock's forms,
 * `pep_proxy_<uuid>` / `iot_sensor_<uuid>` (122 random bits from the CSPRNG), and the password
 * is shown once: only its bcrypt hash is stored.
 */
const PREFIX: Readonly<Record<AgentKind, string>> = { pep: 'pep_proxy_', iot: 'iot_sensor_' };

export const PEP_NOT_FOUND = 'Pep Proxy not found';
export const IOT_NOT_FOUND = 'Iot Agent not found';

/** An id Gatehouse or Keyrock could have given (anything else is simply not found, unread). */
const AGENT_ID = /^[A-Za-z0-9_-]{1,100}$/;
export const isAgentId = (value: string) => AGENT_ID.test(value);

export interface AgentSecret {
  id: string;
  password: string;
}

const fresh = (kind: AgentKind) => `${PREFIX[kind]}${randomUUID()}`;
const hash = (password: string) => bcrypt.hash(password, config().bcryptCost);

async function create(db: Db, access: ApplicationAccess, kind: AgentKind): Promise<AgentSecret> {
  const id = fresh(kind);
  const password = fresh(kind);
  const input = {
    id,
    appId: access.app.id,
    clientId: access.app.clientId,
    passwordHash: await hash(password),
  };
  await (kind === 'pep' ? putPepProxy(db, input) : putIotAgent(db, input));
  return { id, password };
}

/** POST /v1/applications/:id/pep_proxies: 409 when the application has one already. */
export const createPepProxy = (db: Db, access: ApplicationAccess) => create(db, access, 'pep');
/** POST /v1/applications/:id/iot_agents. */
export const createIotAgent = (db: Db, access: ApplicationAccess) => create(db, access, 'iot');

/** The application's PEP proxy id, or Keyrock's 404. */
export async function pepProxyOf(db: Db, access: ApplicationAccess): Promise<string> {
  const id = await pepProxyIdOf(db, access.app.id);
  if (id === undefined) throw notFound(PEP_NOT_FOUND);
  return id;
}

/** The IoT agent `id` of this application, or Keyrock's 404 (also for another application's). */
export async function iotAgentOf(db: Db, access: ApplicationAccess, id: string): Promise<Agent> {
  const agent = isAgentId(id) ? await getAgent(db, 'iot', id) : undefined;
  if (!agent || agent.appId !== access.app.id) throw notFound(IOT_NOT_FOUND);
  return agent;
}

/** GET /v1/applications/:id/iot_agents: Keyrock answers 404 for none. */
export async function iotAgentsOf(db: Db, access: ApplicationAccess): Promise<string[]> {
  const ids = await iotAgentIdsOf(db, access.app.id);
  if (ids.length === 0) throw notFound('Iot agents not found');
  return ids.sort();
}

/**
 * The portal's view of both kinds (its application page lists them): having none is an empty
 * answer there, not Keyrock's 404.
 */
export async function agentsOf(
  db: Db,
  access: ApplicationAccess,
): Promise<{ pepProxy: string | undefined; iotAgents: string[] }> {
  const [pepProxy, iotAgents] = await Promise.all([
    pepProxyIdOf(db, access.app.id),
    iotAgentIdsOf(db, access.app.id),
  ]);
  return { pepProxy, iotAgents: iotAgents.sort() };
}

/** PATCH: a new password, shown once; the old one stops working at once. */
async function reset(db: Db, kind: AgentKind, id: string, missing: string): Promise<string> {
  const password = fresh(kind);
  if (!(await setAgentPassword(db, kind, id, await hash(password)))) throw notFound(missing);
  return password;
}

export async function resetPepProxy(db: Db, access: ApplicationAccess): Promise<string> {
  return reset(db, 'pep', await pepProxyOf(db, access), PEP_NOT_FOUND);
}

export async function resetIotAgent(db: Db, access: ApplicationAccess, id: string): Promise<string> {
  return reset(db, 'iot', (await iotAgentOf(db, access, id)).id, IOT_NOT_FOUND);
}

export async function removePepProxy(db: Db, access: ApplicationAccess): Promise<void> {
  const id = await pepProxyOf(db, access);
  if (!(await deleteAgent(db, 'pep', access.app.id, id))) throw notFound(PEP_NOT_FOUND);
}

export async function removeIotAgent(db: Db, access: ApplicationAccess, id: string): Promise<void> {
  const agent = await iotAgentOf(db, access, id);
  if (!(await deleteAgent(db, 'iot', access.app.id, agent.id))) throw notFound(IOT_NOT_FOUND);
}

export type AgentCheck = { ok: true; agent: Agent } | { ok: false; reason: 'locked' | 'invalid' };

/**
 * An agent's sign-in: its password against the stored hash, through the brute-force guard of its
 * id (5 failures in 15 minutes lock it for 15, as for a user). An unknown id costs one bcrypt
 * comparison too and counts as a failure, so the answer and its timing tell nothing. A hash moved
 * from Keyrock (HMAC-SHA1 with salt, models/pep_proxy.js and iot.js) becomes bcrypt on success.
 * `read` is the agent and guard already read with something else (the token endpoint's client).
 */
export async function verifyAgent(
  db: Db,
  kind: AgentKind,
  id: string,
  password: string,
  read?: AgentCredentials,
): Promise<AgentCheck> {
  if (!isAgentId(id)) return { ok: false, reason: 'invalid' };
  const { agent, guard } = read ?? (await agentCredentials(db, kind, id));
  if (isLocked(guard)) return { ok: false, reason: 'locked' };
  const stored = agent?.passwordHash ?? DUMMY_HASH;
  const match = await matchPassword(password, stored, config().keyrockEncryptionKey);
  if (!match.ok || !agent) {
    await recordFailure(db, guardSubject(kind, id));
    return { ok: false, reason: 'invalid' };
  }
  await Promise.all([
    guard && guard.failures > 0 ? clearFailures(db, guardSubject(kind, id)) : undefined,
    match.upgrade ? setAgentPassword(db, kind, id, await hash(password), stored) : undefined,
  ]);
  return { ok: true, agent };
}
