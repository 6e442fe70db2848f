import type { MovedOrganization, MovedUser } from '../domain/keyrock-import.js';
import { keyrockHash } from '../domain/passwords.js';
import type { MemberRole } from '../model.js';

/**
 * Keyrock 7/8's MySQL tables as `idm import keyrock` reads them (its Sequelize models and
 * migrations: `user`, `organization`, `user_organization`), and how a row becomes what the
 * domain imports. Only the columns read here are required, so a database from any Keyrock 7 or
 * 8 release works; a missing one is a schema error before anything is written.
 */
export const TABLES = {
  user: [
    'id',
    'username',
    'email',
    'password',
    'salt',
    'enabled',
    'admin',
    'description',
    'website',
    'date_password',
  ],
  organization: ['id', 'name', 'description', 'website'],
  user_organization: ['user_id', 'organization_id', 'role'],
} as const;

export type Table = keyof typeof TABLES;

export const selectAll = (table: Table) =>
  `SELECT ${TABLES[table].map((c) => `\`${c}\``).join(', ')} FROM \`${table}\` ORDER BY ${table === 'user_organization' ? '`organization_id`, `user_id`' : '`id`'}`;

type Row = Record<string, unknown>;

/** A column as text: mysql2 gives BLOB and BINARY columns as Buffers, NULL as null. */
export const str = (value: unknown): string | null =>
  value === null || value === undefined
    ? null
    : value instanceof Buffer
      ? value.toString('utf8')
      : String(value);

/** A TINYINT(1) flag as mysql2 returns it. */
export const bool = (value: unknown) => value === 1 || value === true || value === '1';

export type Mapped<T> = { ok: true; value: T } | { ok: false; reason: string };

export const NO_PASSWORD = 'no password Gatehouse can check (neither HMAC-SHA1 nor bcrypt)';

/**
 * The password of a `user`, `pep_proxy` or `iot` row in Gatehouse's stored form: Keyrock's hex
 * HMAC-SHA1 with its salt (models/user.js, pep_proxy.js, iot.js), or a bcrypt hash as it is.
 */
export function storedHash(row: Row): string | undefined {
  const password = str(row.password) ?? '';
  if (password.startsWith('$2')) return password;
  if (/^[0-9a-fA-F]{40}$/.test(password) && !(str(row.salt) ?? '').includes('$')) {
    return keyrockHash(str(row.salt) ?? '', password);
  }
  return undefined;
}

/**
 * A `user` row. Keyrock's password is the hex HMAC-SHA1 of the password under `salt` (or the
 * deployment key). An account Keyrock has not enabled (never activated, or disabled by an
 * administrator: Keyrock's `enabled` column does not say which) moves disabled, as it was: it
 * cannot sign in until an administrator enables it, and its roles and memberships are kept.
 */
export function userFromRow(row: Row): Mapped<MovedUser> {
  const id = str(row.id);
  if (!id) return { ok: false, reason: 'no id' };
  const passwordHash = storedHash(row);
  if (!passwordHash) return { ok: false, reason: NO_PASSWORD };
  const date = row.date_password instanceof Date ? row.date_password : null;
  return {
    ok: true,
    value: {
      keyrockId: id,
      email: str(row.email) ?? '',
      username: str(row.username) ?? '',
      passwordHash,
      admin: bool(row.admin),
      enabled: bool(row.enabled),
      description: str(row.description),
      website: str(row.website),
      datePassword: date && !Number.isNaN(date.getTime()) ? date.toISOString() : undefined,
    },
  };
}

/** An `organization` row with its owners' Keyrock ids from `user_organization`. */
export function organizationFromRow(row: Row, ownerIds: string[]): Mapped<MovedOrganization> {
  const id = str(row.id);
  if (!id) return { ok: false, reason: 'no id' };
  return {
    ok: true,
    value: {
      keyrockId: id,
      name: str(row.name) ?? '',
      description: str(row.description),
      website: str(row.website),
      ownerKeyrockIds: ownerIds,
    },
  };
}

export interface MovedMembership {
  userId: string;
  organizationId: string;
  role: MemberRole;
}

export function membershipFromRow(row: Row): Mapped<MovedMembership> {
  const userId = str(row.user_id);
  const organizationId = str(row.organization_id);
  const role = str(row.role);
  if (!userId || !organizationId) return { ok: false, reason: 'no user or organization' };
  if (role !== 'owner' && role !== 'member')
    return { ok: false, reason: `unknown organization role "${role}"` };
  return { ok: true, value: { userId, organizationId, role } };
}
