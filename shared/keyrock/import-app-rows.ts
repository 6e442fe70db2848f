import * as v from '../domain/validate.js';
import { AppError } from '../errors.js';
import { GRANT_TYPES } from '../model.js';
import { keyrockApplicationFields, keyrockPermissionFields, type PermissionFields } from './applications.js';
import { bool, type Mapped, NO_PASSWORD, storedHash, str } from './import-rows.js';

/**
 * Keyrock 7/8's application tables as `idm import keyrock` reads them (its Sequelize models
 * `oauth2/oauth_client`, `role`, `permission`, `role_permission`, `role_assignment`,
 * `user_authorized_application`, and their migrations), and how a row becomes what the domain
 * imports. The fields go through the same Keyrock rules as /v1 (shared/keyrock/applications.ts),
 * so an application or permission is accepted exactly when /v1 would accept it.
 *
 * `required` columns exist in every Keyrock 7 and 8 database; `optional` ones came with later
 * migrations (token types 2018-09, sign-out URL 2019-01, `is_regex` 2019-03, the service header
 * 2020-01, payload rules 2021-07) and are read where present.
 */
export const APP_TABLES = {
  oauth_client: {
    required: ['id', 'name', 'description', 'secret', 'url', 'redirect_uri', 'image', 'grant_type'],
    optional: ['token_types', 'jwt_secret', 'redirect_sign_out_uri'],
  },
  role: { required: ['id', 'name', 'is_internal', 'oauth_client_id'], optional: [] },
  permission: {
    required: ['id', 'name', 'description', 'is_internal', 'action', 'resource', 'xml', 'oauth_client_id'],
    optional: [
      'is_regex',
      'authorization_service_header',
      'use_authorization_service_header',
      'regex_entity_ids',
      'regex_attributes',
      'regex_types',
    ],
  },
  role_permission: { required: ['id', 'role_id', 'permission_id'], optional: [] },
  role_assignment: {
    required: ['id', 'role_organization', 'oauth_client_id', 'role_id', 'organization_id', 'user_id'],
    optional: [],
  },
  user_authorized_application: { required: ['id', 'user_id', 'oauth_client_id'], optional: ['login_date'] },
  pep_proxy: { required: ['id', 'password', 'salt', 'oauth_client_id'], optional: [] },
  iot: { required: ['id', 'password', 'salt', 'oauth_client_id'], optional: [] },
  trusted_application: { required: ['id', 'oauth_client_id', 'trusted_oauth_client_id'], optional: [] },
} as const satisfies Record<string, { required: readonly string[]; optional: readonly string[] }>;

export type AppTable = keyof typeof APP_TABLES;

/** The SELECT of a table: its required columns and the optional ones the database has. */
export function selectApp(table: AppTable, present: (column: string) => boolean): string {
  const spec = APP_TABLES[table];
  const columns = [...spec.required, ...spec.optional.filter((c: string) => present(`${table}.${c}`))];
  return `SELECT ${columns.map((c) => `\`${c}\``).join(', ')} FROM \`${table}\` ORDER BY \`id\``;
}

type Row = Record<string, unknown>;

/** Keyrock keeps lists (redirect URIs, grant types, token types) as comma-separated strings. */
const list = (value: unknown) =>
  (str(value) ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);

const reasonOf = (error: unknown, fallback: string) => (error instanceof AppError ? error.message : fallback);

/** Keyrock's own application (its portal and the owner of the internal roles and permissions). */
export const KEYROCK_ADMIN_APP = 'idm_admin_app';

/** Keyrock's internal roles, which Gatehouse's built-in ones are (shared/keyrock/applications.ts). */
export const BUILT_IN_ROLES = ['provider', 'purchaser'] as const;
export const isBuiltInRole = (id: string): id is (typeof BUILT_IN_ROLES)[number] =>
  (BUILT_IN_ROLES as readonly string[]).includes(id);

export interface MovedApplication {
  clientId: string;
  clientSecret: string;
  fields: ReturnType<typeof keyrockApplicationFields>;
  /** Keyrock's HS256 key for `jwt` tokens, kept so the application's PEP proxies keep theirs. */
  jwtSecret: string | null;
  /** The file name Keyrock keeps under public/img/applications/, or null for its default image. */
  image: string | null;
  notes: string[];
}

/** Longer free texts than Gatehouse keeps are cut, with a note, rather than losing the record. */
function cut(value: string | null, max: number, field: string, notes: string[]): string {
  const text = value ?? '';
  if (text.length <= max) return text;
  notes.push(`${field} cut to ${max} characters`);
  return text.slice(0, max);
}

/** Gatehouse's client ids are what /v1 paths and the OAuth endpoints accept (application-admin.ts). */
const CLIENT_ID = /^[0-9A-Za-z_-]{1,64}$/;

/**
 * An `oauth_client` row. The client id and the secret (which Keyrock keeps in the clear) are kept
 * as clients hold them; Gatehouse registers one redirect URI (the first of Keyrock's list) and
 * derives response types from the grants. The token types (`jwt`, `permanent`) are kept, and so
 * is the `jwt_secret`: the application's PEP proxies verify `jwt` tokens with it themselves
 * (their PEP_TOKEN_SECRET), so a new one would break every proxy on the day of the move.
 */
export function applicationFromRow(row: Row): Mapped<MovedApplication> {
  const clientId = str(row.id);
  if (!clientId) return { ok: false, reason: 'no id' };
  if (clientId === KEYROCK_ADMIN_APP) return { ok: false, reason: 'Keyrock’s own application (its portal)' };
  if (!CLIENT_ID.test(clientId))
    return { ok: false, reason: 'client id is not 1-64 letters, digits, - or _' };
  const secret = str(row.secret);
  if (!secret) return { ok: false, reason: 'no client secret' };
  const notes: string[] = [];
  const redirects = list(row.redirect_uri);
  if (redirects.length > 1)
    notes.push(`only the first redirect_uri kept; left out: ${redirects.slice(1).join(', ')}`);
  let url = str(row.url) ?? '';
  if (url) {
    try {
      url = v.httpUrl(url, 'url');
    } catch {
      notes.push('url left out: not an http(s) URL');
      url = '';
    }
  }
  let signOut = str(row.redirect_sign_out_uri);
  if (signOut) {
    try {
      v.postLogoutRedirectUris(signOut);
    } catch {
      notes.push('redirect_sign_out_uri left out: not an http(s) URL without fragment');
      signOut = null;
    }
  }
  const grants = list(row.grant_type);
  const unknownGrants = grants.filter((g) => !(GRANT_TYPES as readonly string[]).includes(g));
  if (unknownGrants.length > 0)
    notes.push(`grant types left out: ${unknownGrants.join(', ')} (hybrid flows use the code grant)`);
  // Keyrock lists `bearer` too, which every application issues; Gatehouse keeps the others.
  const tokenTypes = list(row.token_types).filter((t) => t !== 'bearer');
  const jwtSecret = tokenTypes.includes('jwt') ? str(row.jwt_secret) : null;
  if (tokenTypes.includes('jwt') && !jwtSecret) notes.push('no jwt_secret in Keyrock: a new one is made');
  try {
    const fields = keyrockApplicationFields({
      name: cut(str(row.name), v.LIMITS.applicationName, 'name', notes),
      description: cut(str(row.description), v.LIMITS.applicationDescription, 'description', notes),
      url,
      redirect_uri: redirects[0] ?? null,
      grant_type: grants,
      token_types: tokenTypes,
      redirect_sign_out_uri: signOut,
    });
    const image = str(row.image);
    return {
      ok: true,
      value: {
        clientId,
        clientSecret: secret,
        fields,
        jwtSecret,
        image: image && image !== 'default' ? image : null,
        notes,
      },
    };
  } catch (error) {
    return { ok: false, reason: reasonOf(error, 'invalid application') };
  }
}

export interface MovedRole {
  keyrockId: string;
  clientId: string;
  name: string;
  notes: string[];
}

/** A `role` row of an application's own (Keyrock's internal ones are the built-in roles). */
export function roleFromRow(row: Row): Mapped<MovedRole> {
  const id = str(row.id);
  const clientId = str(row.oauth_client_id);
  if (!id || !clientId) return { ok: false, reason: 'no id or application' };
  if (isBuiltInRole(id) || bool(row.is_internal))
    return { ok: false, reason: 'internal to Keyrock: Gatehouse’s built-in Provider and Purchaser' };
  const notes: string[] = [];
  return {
    ok: true,
    value: { keyrockId: id, clientId, name: cut(str(row.name), v.LIMITS.roleName, 'name', notes), notes },
  };
}

export interface MovedPermission {
  keyrockId: string;
  clientId: string;
  fields: PermissionFields;
  notes: string[];
}

/**
 * A `permission` row. Keyrock's internal permissions are rules of the built-in roles in
 * Gatehouse; an XACML rule (`xml`, Keyrock's advanced level) or a payload rule (`regex_*`, its
 * payload level) cannot be decided here and is skipped rather than widened to a plain rule.
 */
export function permissionFromRow(row: Row): Mapped<MovedPermission> {
  const id = str(row.id);
  const clientId = str(row.oauth_client_id);
  if (!id || !clientId) return { ok: false, reason: 'no id or application' };
  if (bool(row.is_internal) || clientId === KEYROCK_ADMIN_APP)
    return { ok: false, reason: 'internal to Keyrock: held by Gatehouse’s built-in Provider and Purchaser' };
  const notes: string[] = [];
  const use = bool(row.use_authorization_service_header);
  try {
    const fields = keyrockPermissionFields({
      name: cut(str(row.name), v.LIMITS.permissionName, 'name', notes),
      description: cut(str(row.description), v.LIMITS.permissionDescription, 'description', notes),
      action: str(row.action),
      resource: str(row.resource),
      xml: str(row.xml),
      regex_entity_ids: str(row.regex_entity_ids),
      regex_attributes: str(row.regex_attributes),
      regex_types: str(row.regex_types),
      is_regex: bool(row.is_regex),
      use_authorization_service_header: use,
      // Keyrock may keep a header it does not use; only a used one is a rule.
      authorization_service_header: use ? str(row.authorization_service_header) : null,
    });
    return { ok: true, value: { keyrockId: id, clientId, fields, notes } };
  } catch (error) {
    return { ok: false, reason: reasonOf(error, 'invalid permission') };
  }
}

export interface MovedRolePermission {
  roleId: string;
  permissionId: string;
}

export function rolePermissionFromRow(row: Row): Mapped<MovedRolePermission> {
  const roleId = str(row.role_id);
  const permissionId = str(row.permission_id);
  if (!roleId || !permissionId) return { ok: false, reason: 'no role or permission' };
  if (isBuiltInRole(roleId))
    return { ok: false, reason: 'internal to Keyrock: Gatehouse’s built-in roles hold these rights' };
  return { ok: true, value: { roleId, permissionId } };
}

export interface MovedAssignment {
  clientId: string;
  roleId: string;
  grantee: { kind: 'user'; keyrockId: string } | { kind: 'org'; keyrockId: string; as: 'member' | 'owner' };
}

/** A `role_assignment` row: a role given to a user, or to an organization's members or owners. */
export function assignmentFromRow(row: Row): Mapped<MovedAssignment> {
  const clientId = str(row.oauth_client_id);
  const roleId = str(row.role_id);
  if (!clientId || !roleId) return { ok: false, reason: 'no application or role' };
  const orgId = str(row.organization_id);
  const userId = str(row.user_id);
  if (orgId) {
    const as = str(row.role_organization) ?? 'member';
    if (as !== 'member' && as !== 'owner') return { ok: false, reason: `unknown organization role "${as}"` };
    return { ok: true, value: { clientId, roleId, grantee: { kind: 'org', keyrockId: orgId, as } } };
  }
  if (userId) return { ok: true, value: { clientId, roleId, grantee: { kind: 'user', keyrockId: userId } } };
  return { ok: false, reason: 'neither a user nor an organization' };
}

export interface MovedConsent {
  userId: string;
  clientId: string;
  approvedAt: string | undefined;
}

export function consentFromRow(row: Row): Mapped<MovedConsent> {
  const userId = str(row.user_id);
  const clientId = str(row.oauth_client_id);
  if (!userId || !clientId) return { ok: false, reason: 'no user or application' };
  const date =
    row.login_date instanceof Date && !Number.isNaN(row.login_date.getTime()) ? row.login_date : null;
  return { ok: true, value: { userId, clientId, approvedAt: date?.toISOString() } };
}

export interface MovedAgent {
  id: string;
  clientId: string;
  passwordHash: string;
}

/** A `pep_proxy` or `iot` row: its id and its password hash as Keyrock stored them. */
export function agentFromRow(row: Row): Mapped<MovedAgent> {
  const id = str(row.id);
  const clientId = str(row.oauth_client_id);
  if (!id || !clientId) return { ok: false, reason: 'no id or application' };
  if (!/^[A-Za-z0-9_-]{1,100}$/.test(id))
    return { ok: false, reason: 'id is not 1-100 letters, digits, - or _' };
  const passwordHash = storedHash(row);
  if (!passwordHash) return { ok: false, reason: NO_PASSWORD };
  return { ok: true, value: { id, clientId, passwordHash } };
}

/** A `trusted_application` row: `clientId` accepts tokens of `trustedClientId` at GET /user. */
export function trustedFromRow(row: Row): Mapped<{ clientId: string; trustedClientId: string }> {
  const clientId = str(row.oauth_client_id);
  const trustedClientId = str(row.trusted_oauth_client_id);
  if (!clientId || !trustedClientId) return { ok: false, reason: 'no application' };
  return { ok: true, value: { clientId, trustedClientId } };
}

/** Keyrock names an application's image file itself (`<uuid>.<ext>`): anything else is no file of its. */
export const IMAGE_FILE = /^[A-Za-z0-9][A-Za-z0-9._-]{0,200}$/;
