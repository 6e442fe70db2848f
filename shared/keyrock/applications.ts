import * as v from '../domain/validate.js';
import { invalid, notFound } from '../errors.js';
import type { GrantType, KeyrockTokenType, MemberRole } from '../model.js';
import type { Application, Role } from '../store/applications.js';
import type { Permission } from '../store/roles.js';
import { checkRegex } from './regex.js';
import { jsonObject } from './request.js';

/**
 * Keyrock's wire format for applications, roles and permissions (controllers/api/applications.js,
 * roles.js, permissions.js, role_permission_assignments.js): request bodies parsed and checked,
 * and the JSON shapes answered. An application's /v1 id is its OAuth client id, as in Keyrock.
 */

/** Keyrock's application listing and detail link to the application's sub-resources. */
function urls(id: string) {
  const base = `/v1/applications/${id}`;
  return {
    permissions_url: `${base}/permissions`,
    roles_url: `${base}/roles`,
    users_url: `${base}/users`,
    pep_proxies_url: `${base}/pep_proxies`,
    iot_agents_url: `${base}/iot_agents`,
    trusted_applications_url: `${base}/trusted_applications`,
  };
}

/** RFC 6749 response types that follow from the grants, as Keyrock derives them. */
function responseTypes(grants: GrantType[]): string[] {
  return [
    ...(grants.includes('authorization_code') ? ['code'] : []),
    ...(grants.includes('implicit') ? ['token'] : []),
  ];
}

/**
 * An application as Keyrock shows it. The client secret is stored only as its digest, so it
 * appears at creation only. `token_types` lists Keyrock's types with `bearer` always last, as
 * Keyrock's model reads them back; `jwt_secret` (the HS256 key of `jwt` tokens) is shown where
 * the caller passes it, to the application's managers (shared/domain/jwt-secrets.ts), else null.
 */
export function applicationBody(app: Application, jwtSecret: string | null = null) {
  return {
    id: app.clientId,
    name: app.name,
    description: app.description,
    image: 'default',
    url: app.url || null,
    redirect_uri: app.callbackUrl,
    redirect_sign_out_uri: app.postLogoutRedirectUris?.[0] ?? null,
    grant_type: [...app.grantTypes],
    response_type: responseTypes(app.grantTypes),
    token_types: [...(app.tokenTypes ?? []), 'bearer'],
    jwt_secret: jwtSecret,
    client_type: null,
    scope: null,
  };
}

/** Each entry of GET /v1/applications, and GET /v1/applications/:id (with the jwt secret for a manager). */
export const applicationInfo = (app: Application, jwtSecret: string | null = null) => ({
  ...applicationBody(app, jwtSecret),
  urls: urls(app.clientId),
});

/** POST /v1/applications: what was stored, with the client secret this once (and the jwt secret). */
export const createdApplicationBody = (app: Application, secret: string, jwtSecret: string | null) => ({
  application: { ...applicationBody(app, jwtSecret), secret },
});

/** Keyrock's `values_updated`: the fields whose value changed, or its 200 "no change" message. */
export function valuesUpdated(kind: string, before: object, after: object) {
  const was = before as Record<string, unknown>;
  const changed = Object.entries(after).filter(
    ([k, value]) => JSON.stringify(was[k]) !== JSON.stringify(value),
  );
  if (changed.length === 0) {
    return { message: `Request don't change the ${kind} parameters`, code: 200, title: 'OK' };
  }
  return { values_updated: Object.fromEntries(changed) };
}

function member(body: Record<string, unknown>, name: string): Record<string, unknown> {
  const value = body[name];
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw invalid(`Missing parameter ${name} in body request`, name);
  }
  return value as Record<string, unknown>;
}

/** Keyrock treats an absent, null or empty value as "not given" (it tests truthiness). */
const given = (value: unknown) => value !== undefined && value !== null && value !== '' && value !== false;

/**
 * Keyrock's grant types mapped onto Gatehouse's. Keyrock keeps the ones it knows and drops the
 * rest, and refuses a list left empty; `hybrid` (OpenID Connect's code id_token flows) is
 * accepted and dropped, since Gatehouse serves ID tokens through the code and implicit grants.
 */
function grantTypes(value: unknown): GrantType[] {
  if (!Array.isArray(value)) throw invalid('Invalid Grant Type', 'grant_type');
  const known: GrantType[] = [
    'client_credentials',
    'password',
    'authorization_code',
    'implicit',
    'refresh_token',
  ];
  const out = known.filter((g) => value.includes(g));
  if (out.length === 0) throw invalid('Invalid Grant Type', 'grant_type');
  return out;
}

/** Keyrock accepts a list of `jwt` and `permanent` (not `bearer`, which is always allowed). */
function tokenTypes(value: unknown): KeyrockTokenType[] {
  if (!Array.isArray(value) || !value.every((t) => t === 'jwt' || t === 'permanent')) {
    throw invalid('Invalid token type in body request', 'token_types');
  }
  return v.keyrockTokenTypes(value, 'token_types');
}

/**
 * Keyrock stores `redirect_uri` as given (its own test renames one to "new redirect uri3"). An
 * absolute URL must still be http(s) without credentials or fragment (RFC 6749 §3.1.2); another
 * string is kept as Keyrock keeps it: the authorization endpoint only redirects to a value equal
 * to it, which resolves against Gatehouse's own origin (docs/decisions.md).
 */
function redirectUri(value: unknown): string {
  const text = v.text(value, 'redirect_uri', { max: 2000 });
  return /^[A-Za-z][A-Za-z0-9+.-]*:/.test(text)
    ? v.httpUrl(text, 'redirect_uri', { allowFragment: false })
    : text;
}

type ApplicationFields = ReturnType<typeof v.applicationFields>;

/** The fields of a new application: `name` and `redirect_uri` required, as in Keyrock. */
export function newApplicationBody(contentType: string | undefined, text: string): ApplicationFields {
  return keyrockApplicationFields(member(jsonObject(contentType, text), 'application'));
}

/**
 * An application's fields by Keyrock's rules, from a /v1 body or from a row of Keyrock's
 * `oauth_client` table (`idm import keyrock`), so both accept the same applications.
 */
export function keyrockApplicationFields(app: Record<string, unknown>): ApplicationFields {
  if (!given(app.name)) throw invalid('Missing parameter name in body request or empty name', 'name');
  if (!given(app.redirect_uri))
    throw invalid('Missing parameter redirect_uri in body request', 'redirect_uri');
  return {
    name: v.text(app.name, 'name', { max: v.LIMITS.applicationName }),
    description: v.optionalText(app.description, 'description', v.LIMITS.applicationDescription),
    url: given(app.url) ? v.httpUrl(app.url, 'url') : '',
    callbackUrl: redirectUri(app.redirect_uri),
    grantTypes: given(app.grant_type) ? grantTypes(app.grant_type) : v.grantTypes(undefined),
    // RFC 9068 JWT access tokens are the portal's choice; Keyrock's `jwt` is a token type.
    accessTokenFormat: 'opaque',
    postLogoutRedirectUris: v.postLogoutRedirectUris(app.redirect_sign_out_uri, 'redirect_sign_out_uri'),
    tokenTypes: given(app.token_types) ? tokenTypes(app.token_types) : [],
  };
}

/**
 * PATCH /v1/applications/:id: each given field replaces the current one, as in Keyrock (which
 * ignores empty values); the id, secret and response types cannot be set.
 */
export function applicationChangesBody(
  contentType: string | undefined,
  text: string,
  current: Application,
): ApplicationFields {
  const app = member(jsonObject(contentType, text), 'application');
  if (given(app.id) || given(app.secret) || given(app.response_type)) {
    throw invalid('Cannot set id, secret or response_type');
  }
  return {
    name: given(app.name) ? v.text(app.name, 'name', { max: v.LIMITS.applicationName }) : current.name,
    description: given(app.description)
      ? v.optionalText(app.description, 'description', v.LIMITS.applicationDescription)
      : current.description,
    url: given(app.url) ? v.httpUrl(app.url, 'url') : current.url,
    callbackUrl: given(app.redirect_uri) ? redirectUri(app.redirect_uri) : current.callbackUrl,
    grantTypes: given(app.grant_type) ? grantTypes(app.grant_type) : current.grantTypes,
    accessTokenFormat: current.accessTokenFormat ?? 'opaque',
    postLogoutRedirectUris: given(app.redirect_sign_out_uri)
      ? v.postLogoutRedirectUris(app.redirect_sign_out_uri, 'redirect_sign_out_uri')
      : (current.postLogoutRedirectUris ?? []),
    tokenTypes: given(app.token_types) ? tokenTypes(app.token_types) : (current.tokenTypes ?? []),
  };
}

// Roles. Keyrock's internal roles have the ids `provider` and `purchaser` and belong to its own
// application `idm_admin_app`; a role of the application's own is its decimal id here.

export const roleKeyrockId = (role: Role) => role.builtIn ?? String(role.id);

/** An entry of GET /v1/applications/:id/roles (Keyrock lists id and name only). */
export const roleEntry = (role: Role) => ({ id: roleKeyrockId(role), name: role.name });

/** GET /v1/applications/:id/roles/:role and POST's answer. */
export function roleBody(role: Role, clientId: string) {
  return {
    id: roleKeyrockId(role),
    name: role.name,
    is_internal: role.builtIn !== undefined,
    oauth_client_id: role.builtIn ? 'idm_admin_app' : clientId,
  };
}

/** POST /v1/applications/:id/roles `{role: {name}}`. */
export function newRoleBody(contentType: string | undefined, text: string): { name: string } {
  const role = member(jsonObject(contentType, text), 'role');
  if (!given(role.name)) throw invalid('Missing parameter name in body request or empty name', 'name');
  return { name: v.roleName(role.name) };
}

/** PATCH /v1/applications/:id/roles/:role `{role: {name?}}`; the id and `is_internal` stay. */
export function roleChangesBody(contentType: string | undefined, text: string): { name?: string } {
  const role = member(jsonObject(contentType, text), 'role');
  if (given(role.id) || given(role.is_internal)) throw invalid('Cannot set id or is_internal');
  return given(role.name) ? { name: v.roleName(role.name) } : {};
}

// Permissions. Keyrock's six internal permissions have the ids "1" to "6"; so that no id means
// two permissions, a permission of the application's own is `p<id>` (docs/api.md).

/** Keyrock's internal permissions (its seeders), read-only; Provider holds all, Purchaser "5". */
export const INTERNAL_PERMISSIONS = [
  { id: '1', name: 'Get and assign all internal application roles' },
  { id: '2', name: 'Manage the application' },
  { id: '3', name: 'Manage roles' },
  { id: '4', name: 'Manage authorizations' },
  { id: '5', name: 'Get and assign all public application roles' },
  { id: '6', name: 'Get and assign only public owned roles' },
] as const;

export const BUILT_IN_PERMISSIONS: Readonly<Record<'provider' | 'purchaser', readonly string[]>> = {
  provider: ['1', '2', '3', '4', '5', '6'],
  purchaser: ['5'],
};

export const permissionKeyrockId = (p: Pick<Permission, 'id'>) => `p${p.id}`;

/** A permission id as a path carries it: an internal one, or the Gatehouse id of the app's own. */
export function permissionIdParam(raw: string): { internal: string } | { id: number } {
  if (INTERNAL_PERMISSIONS.some((p) => p.id === raw)) return { internal: raw };
  const m = /^p(\d{1,15})$/.exec(raw);
  if (!m) return { id: 0 };
  return { id: Number(m[1]) };
}

const NO_PAYLOAD = { regex_entity_ids: null, regex_attributes: null, regex_types: null, xml: null };

export function internalPermissionBody(id: string) {
  const p = INTERNAL_PERMISSIONS.find((x) => x.id === id)!;
  return {
    id: p.id,
    is_internal: true,
    name: p.name,
    description: null,
    action: null,
    resource: null,
    is_regex: false,
    authorization_service_header: null,
    use_authorization_service_header: false,
    ...NO_PAYLOAD,
    oauth_client_id: 'idm_admin_app',
  };
}

export function permissionBody(p: Permission, clientId: string) {
  return {
    id: permissionKeyrockId(p),
    is_internal: false,
    name: p.name,
    description: p.description || null,
    action: p.verb,
    resource: p.path,
    is_regex: p.isRegex === true,
    authorization_service_header: p.serviceHeader ?? null,
    use_authorization_service_header: p.useServiceHeader === true,
    ...NO_PAYLOAD,
    oauth_client_id: clientId,
  };
}

export type PermissionFields = Omit<Permission, 'id' | 'appId'>;

function boolField(value: unknown, field: string): boolean {
  if (value === undefined || value === null) return false;
  if (typeof value !== 'boolean') throw invalid(`${field} attribute must be a boolean`, field);
  return value;
}

/**
 * The resource a permission matches. Keyrock compares it with the PEP proxy's path as given, so
 * it need not start with "/"; a pattern (`is_regex`) must pass the checker (shared/keyrock/regex.ts)
 * so that no stored pattern can hang a decision.
 */
function resource(value: unknown, isRegex: boolean): string {
  const text = v.text(value, 'resource', { max: 500 });
  if (!isRegex) return text;
  const verdict = checkRegex(text);
  if (!verdict.ok)
    throw invalid(`resource is not an allowed regular expression: ${verdict.reason}`, 'resource');
  return text;
}

/**
 * Keyrock's header rules, applied to the body alone on create and update: the header is required
 * when `use_authorization_service_header` is true and refused without it. Returns the body's header.
 */
function serviceHeader(p: Record<string, unknown>, use: boolean): string | undefined {
  if (use && !given(p.authorization_service_header)) {
    throw invalid('if use_authorization_service_header is set, authorization_service_header needs to be set');
  }
  if (!use && given(p.authorization_service_header)) {
    throw invalid('if authorization_service_header is set, use_authorization_service_header needs to be set');
  }
  return given(p.authorization_service_header)
    ? v.text(p.authorization_service_header, 'authorization_service_header', { max: 200 })
    : undefined;
}

/**
 * Keyrock's payload rules (`regex_entity_ids`, …) need its `payload` level and XACML rules its
 * `advanced` level; Gatehouse answers as Keyrock at the `basic` level does.
 */
function refuseAdvanced(p: Record<string, unknown>): void {
  if (given(p.xml)) throw invalid('Idm is not configured to create XACML advanced rules', 'xml');
  for (const field of ['regex_entity_ids', 'regex_attributes', 'regex_types']) {
    if (given(p[field])) throw invalid(`Cannot set ${field} unless running in payload mode`, field);
  }
}

/** POST /v1/applications/:id/permissions `{permission: {name, action, resource, …}}`. */
export function newPermissionBody(contentType: string | undefined, text: string): PermissionFields {
  return keyrockPermissionFields(member(jsonObject(contentType, text), 'permission'));
}

/**
 * A permission's fields by Keyrock's rules, from a /v1 body or from a row of Keyrock's
 * `permission` table (`idm import keyrock`): a payload or XACML rule is refused in both.
 */
export function keyrockPermissionFields(p: Record<string, unknown>): PermissionFields {
  if (!given(p.name)) throw invalid('Missing parameter name in body request or empty name', 'name');
  refuseAdvanced(p);
  if (!given(p.action) || !given(p.resource)) throw invalid('Set action and resource');
  const isRegex = boolField(p.is_regex, 'is_regex');
  const use = boolField(p.use_authorization_service_header, 'use_authorization_service_header');
  const header = serviceHeader(p, use);
  return {
    name: v.text(p.name, 'name', { max: v.LIMITS.permissionName }),
    description: v.optionalText(p.description, 'description', v.LIMITS.permissionDescription),
    verb: v.httpVerb(p.action, 'action'),
    path: resource(p.resource, isRegex),
    isRegex: isRegex || undefined,
    serviceHeader: header,
    useServiceHeader: use || undefined,
  };
}

/**
 * PATCH /v1/applications/:id/permissions/:permission: the fields given replace the current ones
 * (action and resource only together, as in Keyrock); the resource is checked again whenever the
 * permission is, or becomes, a pattern.
 */
export function permissionChangesBody(
  contentType: string | undefined,
  text: string,
  current: Permission,
): PermissionFields {
  const p = member(jsonObject(contentType, text), 'permission');
  if (given(p.id) || given(p.is_internal)) throw invalid('Cannot set id or is_internal');
  refuseAdvanced(p);
  const isRegex = p.is_regex === undefined ? current.isRegex === true : boolField(p.is_regex, 'is_regex');
  const bodyUse = boolField(p.use_authorization_service_header, 'use_authorization_service_header');
  const header = serviceHeader(p, bodyUse) ?? current.serviceHeader;
  const use = p.use_authorization_service_header === undefined ? current.useServiceHeader === true : bodyUse;
  const both = given(p.action) && given(p.resource);
  return {
    name: given(p.name) ? v.text(p.name, 'name', { max: v.LIMITS.permissionName }) : current.name,
    description: given(p.description)
      ? v.optionalText(p.description, 'description', v.LIMITS.permissionDescription)
      : current.description,
    verb: both ? v.httpVerb(p.action, 'action') : current.verb,
    path: resource(both ? p.resource : current.path, isRegex),
    isRegex: isRegex || undefined,
    serviceHeader: header,
    useServiceHeader: use || undefined,
  };
}

/** Keyrock's names for a permission's fields, to report what a PATCH changed. */
export function permissionValues(p: PermissionFields) {
  return {
    name: p.name,
    description: p.description || null,
    action: p.verb,
    resource: p.path,
    is_regex: p.isRegex === true,
    authorization_service_header: p.serviceHeader ?? null,
    use_authorization_service_header: p.useServiceHeader === true,
  };
}

/** PUT or POST /v1/applications/:id/roles/:role/permissions/:permission. */
export const assignmentBody = (roleId: string, permissionId: string) => ({
  role_permission_assignments: { role_id: roleId, permission_id: permissionId },
});

// Role assignments. User and organization ids are Gatehouse's in decimal, as in the
// organization member lists (an authorization item does not carry a Keyrock id); the paths
// accept both forms (shared/domain/user-admin.ts, organizations.ts).

/** An entry of GET …/users and …/users/:user/roles. */
export const userAssignmentEntry = (userId: number, role: Role) => ({
  user_id: String(userId),
  role_id: roleKeyrockId(role),
});

/** PUT or POST …/users/:user/roles/:role. */
export const userAssignedBody = (userId: number, role: Role, clientId: string) => ({
  role_user_assignments: { role_id: roleKeyrockId(role), user_id: String(userId), oauth_client_id: clientId },
});

/** The organization role in a path: Keyrock gives roles to an organization's `member`s or its `owner`s. */
export function organizationRoleParam(raw: string): MemberRole {
  if (raw === 'member' || raw === 'owner') return raw;
  throw notFound('Organization role not found');
}

/**
 * Entries of GET …/organizations (with the organization role) and …/organizations/:org/roles:
 * one per organization role that holds it, as Keyrock keeps (and lists) one row per grant.
 */
export const orgAssignmentEntries = (
  orgId: number,
  role: Role,
  heldBy: readonly MemberRole[],
  withOrganizationRole: boolean,
) =>
  heldBy.map((holder) => ({
    organization_id: String(orgId),
    ...(withOrganizationRole ? { role_organization: holder } : {}),
    role_id: roleKeyrockId(role),
  }));

/** PUT or POST …/organizations/:org/roles/:role/organization_roles/:holder. */
export const orgAssignedBody = (orgId: number, role: Role, clientId: string, holder: MemberRole) => ({
  role_organization_assignments: {
    role_id: roleKeyrockId(role),
    organization_id: String(orgId),
    oauth_client_id: clientId,
    role_organization: holder,
  },
});
