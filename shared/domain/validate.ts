import { invalid } from '../errors.js';
import {
  ACCESS_TOKEN_FORMATS,
  type AccessTokenFormat,
  GRANT_TYPES,
  type GrantType,
  HTTP_VERBS,
  type HttpVerb,
  KEYROCK_TOKEN_TYPES,
  type KeyrockTokenType,
  MEMBER_ROLES,
  type MemberRole,
} from '../model.js';

/**
 * Input rules, one place each. Every rule throws a field-level validation error, so the portal
 * API, the CLI and the OAuth endpoints report the same sentence for the same mistake.
 */

/** Lengths of what people name and describe, the same whoever writes it (portal, CLI, /v1). */
export const LIMITS = {
  displayName: 64,
  applicationName: 100,
  applicationDescription: 1000,
  organizationName: 64,
  organizationDescription: 500,
  roleName: 64,
  permissionName: 64,
  permissionDescription: 500,
  userDescription: 1000,
  /** Users per page of the administrators' list (GET /v1/users), and its default. */
  usersPage: 1000,
  usersPageDefault: 100,
  /** Users per page of the portal's administrator page (GET /api/admin/users), and its default. */
  directoryPage: 100,
  directoryPageDefault: 20,
  /** Post-logout redirect URIs one application may register (RP-Initiated Logout 1.0 §3). */
  postLogoutRedirectUris: 10,
} as const;

export function text(value: unknown, field: string, { min = 1, max = 200 } = {}): string {
  if (typeof value !== 'string') throw invalid(`${field} is required.`, field);
  const trimmed = value.trim();
  if (trimmed.length < min)
    throw invalid(min <= 1 ? `${field} is required.` : `${field} must be at least ${min} characters.`, field);
  if (trimmed.length > max) throw invalid(`${field} must be at most ${max} characters.`, field);
  // Control characters have no place in names and break logs and headers.
  // biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point.
  if (/[\u0000-\u001f\u007f]/.test(trimmed)) throw invalid(`${field} contains control characters.`, field);
  return trimmed;
}

export function optionalText(value: unknown, field: string, max = 1000): string {
  if (value === undefined || value === null || value === '') return '';
  return text(value, field, { min: 0, max });
}

// A pragmatic address check (RFC 5321 limits length to 254); delivery is not verified here.
const EMAIL = /^[^\s@]{1,64}@[^\s@]+\.[^\s@]{2,}$/;

export function email(value: unknown, field = 'email'): string {
  const v = text(value, field, { max: 254 });
  if (!EMAIL.test(v)) throw invalid(`${field} must be an email address.`, field);
  return v.toLowerCase();
}

const NICK = /^[A-Za-z0-9][A-Za-z0-9._-]{1,31}$/;

export function nickName(value: unknown, field = 'nickName'): string {
  const v = text(value, field, { max: 32 });
  if (!NICK.test(v)) {
    throw invalid(`${field} must be 2 to 32 letters, digits, dots, dashes or underscores.`, field);
  }
  return v;
}

export function password(value: unknown, field = 'password'): string {
  if (typeof value !== 'string' || value.length < 8) {
    throw invalid(`${field} must be at least 8 characters.`, field);
  }
  // bcrypt reads at most 72 bytes; a longer password would be silently truncated.
  if (Buffer.byteLength(value, 'utf8') > 72) throw invalid(`${field} must be at most 72 bytes.`, field);
  return value;
}

/** An absolute http(s) URL without credentials (RFC 6749 §3.1.2: no fragment in a redirect URI). */
export function httpUrl(value: unknown, field: string, { allowFragment = true } = {}): string {
  const v = text(value, field, { max: 2000 });
  let url: URL;
  try {
    url = new URL(v);
  } catch {
    throw invalid(`${field} must be an absolute http(s) URL.`, field);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw invalid(`${field} must be an absolute http(s) URL.`, field);
  }
  if (url.username || url.password) throw invalid(`${field} must not contain credentials.`, field);
  if (!allowFragment && v.includes('#')) throw invalid(`${field} must not contain a fragment.`, field);
  return v;
}

export function positiveInt(value: unknown, field: string): number {
  const n =
    typeof value === 'number'
      ? value
      : typeof value === 'string' && /^\d{1,15}$/.test(value)
        ? Number(value)
        : NaN;
  if (!Number.isSafeInteger(n) || n < 1) throw invalid(`${field} must be a positive integer.`, field);
  return n;
}

export function httpVerb(value: unknown, field = 'verb'): HttpVerb {
  const v = typeof value === 'string' ? value.toUpperCase() : '';
  if (!(HTTP_VERBS as readonly string[]).includes(v)) {
    throw invalid(`${field} must be one of ${HTTP_VERBS.join(', ')}.`, field);
  }
  return v as HttpVerb;
}

export function resourcePath(value: unknown, field = 'path'): string {
  const v = text(value, field, { max: 500 });
  if (!v.startsWith('/')) throw invalid(`${field} must start with "/".`, field);
  if (/\s/.test(v)) throw invalid(`${field} must not contain spaces.`, field);
  return v;
}

export function grantTypes(value: unknown, field = 'grantTypes'): GrantType[] {
  if (value === undefined || value === null || value === '') return [...GRANT_TYPES];
  const list = Array.isArray(value) ? value : String(value).split(',');
  const out = new Set<GrantType>();
  for (const raw of list) {
    const g = String(raw).trim();
    if (!(GRANT_TYPES as readonly string[]).includes(g)) {
      throw invalid(`${field} may contain only ${GRANT_TYPES.join(', ')}; "${g}" is unknown.`, field);
    }
    out.add(g as GrantType);
  }
  if (out.size === 0) throw invalid(`${field} must name at least one grant type.`, field);
  return [...out];
}

export function memberRole(value: unknown, field = 'role'): MemberRole {
  if (!(MEMBER_ROLES as readonly unknown[]).includes(value)) {
    const got = typeof value === 'string' ? `, got "${value.slice(0, 40)}"` : '';
    throw invalid(`${field} must be member or owner${got}.`, field);
  }
  return value as MemberRole;
}

export function roleName(value: unknown, field = 'name'): string {
  return text(value, field, { max: LIMITS.roleName });
}

export function organizationFields(input: { name: unknown; description?: unknown }) {
  return {
    name: text(input.name, 'name', { max: LIMITS.organizationName }),
    description: optionalText(input.description, 'description', LIMITS.organizationDescription),
  };
}

export function permissionFields(input: {
  name: unknown;
  description?: unknown;
  verb: unknown;
  path: unknown;
}) {
  return {
    name: text(input.name, 'name', { max: LIMITS.permissionName }),
    description: optionalText(input.description, 'description', LIMITS.permissionDescription),
    verb: httpVerb(input.verb),
    path: resourcePath(input.path),
  };
}

export interface ApplicationInput {
  name: unknown;
  description: unknown;
  url: unknown;
  callbackUrl: unknown;
  grantTypes?: unknown;
  accessTokenFormat?: unknown;
  postLogoutRedirectUris?: unknown;
  tokenTypes?: unknown;
}

export function applicationFields(input: ApplicationInput) {
  return {
    name: text(input.name, 'name', { max: LIMITS.applicationName }),
    description: text(input.description, 'description', { max: LIMITS.applicationDescription }),
    url: httpUrl(input.url, 'url'),
    // RFC 6749 §3.1.2: the redirection endpoint URI MUST NOT include a fragment.
    callbackUrl: httpUrl(input.callbackUrl, 'callbackUrl', { allowFragment: false }),
    grantTypes: grantTypes(input.grantTypes),
    accessTokenFormat: accessTokenFormat(input.accessTokenFormat),
    postLogoutRedirectUris: postLogoutRedirectUris(input.postLogoutRedirectUris),
    tokenTypes: keyrockTokenTypes(input.tokenTypes),
  };
}

/**
 * Keyrock's token types beyond `bearer` (always allowed): a list of `jwt` and `permanent`;
 * `bearer` itself may be listed and is dropped. Absent: none.
 */
export function keyrockTokenTypes(value: unknown, field = 'tokenTypes'): KeyrockTokenType[] {
  if (value === undefined || value === null) return [];
  const allowed: readonly unknown[] = [...KEYROCK_TOKEN_TYPES, 'bearer'];
  if (!Array.isArray(value) || value.length > 3 || !value.every((t) => allowed.includes(t))) {
    throw invalid(`${field} must be a list of ${KEYROCK_TOKEN_TYPES.join(' and ')}.`, field);
  }
  return KEYROCK_TOKEN_TYPES.filter((t) => value.includes(t));
}

/**
 * Where RP-initiated logout may send the browser back to (RP-Initiated Logout 1.0 §3: matched
 * exactly, so stored as given): absolute http(s) URLs without a fragment, as a list (or one
 * string). Keyrock's single `redirect_sign_out_uri` is a list of one.
 */
export function postLogoutRedirectUris(value: unknown, field = 'postLogoutRedirectUris'): string[] {
  if (value === undefined || value === null || value === '') return [];
  const list = Array.isArray(value) ? value : [value];
  if (list.length > LIMITS.postLogoutRedirectUris) {
    throw invalid(`${field} may hold at most ${LIMITS.postLogoutRedirectUris} URLs.`, field);
  }
  return [...new Set(list.map((v) => httpUrl(v, field, { allowFragment: false })))];
}

/** `opaque` (the default) or `jwt` (RFC 9068 access tokens). */
export function accessTokenFormat(value: unknown, field = 'accessTokenFormat'): AccessTokenFormat {
  if (value === undefined || value === null || value === '') return 'opaque';
  if (!(ACCESS_TOKEN_FORMATS as readonly unknown[]).includes(value)) {
    throw invalid(`${field} must be ${ACCESS_TOKEN_FORMATS.join(' or ')}.`, field);
  }
  return value as AccessTokenFormat;
}

/** A Keyrock id (its UUIDs, or the ids of its test data such as `aaaaaaaa-good-0000-0000-000000000000`). */
export function keyrockId(value: string, field = 'keyrockId'): string {
  if (!/^[0-9A-Za-z_-]{1,64}$/.test(value))
    throw invalid(`${field} must be 1–64 letters, digits, - or _.`, field);
  return value;
}

/** A person's display name (Keyrock's `username`: free text, not unique). */
export function displayName(value: unknown, field = 'displayName'): string {
  return text(value, field, { max: LIMITS.displayName });
}

/** The optional profile fields Keyrock keeps for a user; a website must be an http(s) URL. */
export function profileFields(input: { description?: unknown; website?: unknown }) {
  return {
    description:
      input.description === undefined
        ? undefined
        : optionalText(input.description, 'description', LIMITS.userDescription),
    website:
      input.website === undefined || input.website === null || input.website === ''
        ? input.website === undefined
          ? undefined
          : ''
        : httpUrl(input.website, 'website'),
  };
}

/** A page size from a query parameter: 1 to LIMITS.usersPage, the default when absent. */
export function pageLimit(value: string | undefined, field = 'limit'): number {
  if (value === undefined) return LIMITS.usersPageDefault;
  const n = positiveInt(value, field);
  if (n > LIMITS.usersPage) throw invalid(`${field} must be at most ${LIMITS.usersPage}.`, field);
  return n;
}

export function bool(value: unknown, field: string): boolean {
  if (typeof value !== 'boolean') throw invalid(`${field} must be true or false.`, field);
  return value;
}

/** A search prefix: trimmed, at most 100 characters, no control characters; empty means all. */
export function searchPrefix(value: unknown, field = 'q'): string {
  if (value === undefined || value === '') return '';
  return text(value, field, { min: 0, max: 100 });
}
