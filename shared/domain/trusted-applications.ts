import { forbidden, invalid, notFound } from '../errors.js';
import { getClient } from '../store/applications.js';
import type { Db } from '../store/db.js';
import { addTrusted, clientNames, MAX_TRUSTED, removeTrusted } from '../store/trusted.js';
import type { ApplicationAccess } from './permissions-policy.js';

/**
 * Trusted applications (Keyrock's controllers/api/trusted_applications.js): application X lists
 * the client ids whose tokens GET /user?app_id=X accepts, with X's roles and decisions
 * (models/model_oauth_server.js, search_user_info). Keyrock's answers: its own admin application
 * is never one (403), an unknown one is 404, the application itself or a repeated add is 400.
 */
const CLIENT_ID = /^[0-9A-Za-z_-]{1,64}$/;

const trustedOf = async (db: Db, access: ApplicationAccess) =>
  (await getClient(db, access.app.clientId))?.trusted ?? [];

/** The application's trusted client ids; Keyrock answers 404 for none. */
export async function trustedApplicationsOf(db: Db, access: ApplicationAccess): Promise<string[]> {
  const list = await trustedOf(db, access);
  if (list.length === 0) throw notFound('Trusted applications nof found');
  return list;
}

/**
 * The portal's list: each trusted client id with its application's name (null once that
 * application is gone), in one BatchGetItem of the clients; none is an empty list there.
 */
export async function trustedApplicationsView(
  db: Db,
  access: ApplicationAccess,
): Promise<{ clientId: string; name: string | null }[]> {
  const list = await trustedOf(db, access);
  const names = await clientNames(db, list);
  return list.map((clientId) => ({ clientId, name: names.get(clientId) ?? null }));
}

async function checkedOther(db: Db, access: ApplicationAccess, other: string) {
  if (other === 'idm_admin_app') throw forbidden('Not allowed');
  const [target, own] = await Promise.all([
    CLIENT_ID.test(other) ? getClient(db, other) : undefined,
    getClient(db, access.app.clientId),
  ]);
  if (!target) throw notFound('Application to be add as trusted not found');
  if (other === access.app.clientId) throw invalid('Bad request');
  return own?.trusted ?? [];
}

/** PUT/POST …/trusted_applications/:other. */
export async function trustApplication(db: Db, access: ApplicationAccess, other: string): Promise<void> {
  const list = await checkedOther(db, access, other);
  if (list.includes(other)) throw invalid('Trusted application already added');
  if (list.length >= MAX_TRUSTED) throw invalid(`An application trusts at most ${MAX_TRUSTED} applications.`);
  if (!(await addTrusted(db, access.app.clientId, other))) throw invalid('Trusted application already added');
}

/** DELETE …/trusted_applications/:other. */
export async function distrustApplication(db: Db, access: ApplicationAccess, other: string): Promise<void> {
  const list = await checkedOther(db, access, other);
  const removed = await removeTrusted(db, access.app.clientId, other, list.indexOf(other));
  if (!removed) throw invalid('Application has not that trusted application added');
}
