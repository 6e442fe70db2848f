import { invalid } from '../errors.js';

/**
 * Keyrock's request bodies, parsed from the raw text and content type (shared/http hands them
 * over, so this module knows no events). Missing pieces are 400s in Keyrock's words; the values
 * themselves are checked by the domain's rules (shared/domain/validate.ts).
 */
const JSON_ONLY = 'Missing parameter: header Content-Type: application/json';

function mediaType(contentType: string | undefined): string {
  return (contentType ?? '').split(';')[0]!.trim().toLowerCase();
}

function parseObject(text: string): Record<string, unknown> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw invalid('The body is not valid JSON.');
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw invalid('The body must be a JSON object.');
  }
  return parsed as Record<string, unknown>;
}

/** A JSON object body; Keyrock refuses POST, PATCH and PUT bodies of any other type. */
export function jsonObject(contentType: string | undefined, text: string): Record<string, unknown> {
  if (mediaType(contentType) !== 'application/json') throw invalid(JSON_ONLY);
  return parseObject(text);
}

const asString = (value: unknown) => (typeof value === 'string' && value !== '' ? value : undefined);

/**
 * POST /v1/auth/tokens: `{name, password}` (name is the email), `{token}`, or both, as JSON or
 * as a form (Keyrock accepts both; its own test signs in with a form).
 */
export function tokenRequest(
  contentType: string | undefined,
  text: string,
): { name?: string; password?: string; token?: string; code?: string } {
  const type = mediaType(contentType);
  let body: Record<string, unknown>;
  if (type === 'application/json') body = parseObject(text);
  else if (type === 'application/x-www-form-urlencoded') body = Object.fromEntries(new URLSearchParams(text));
  else {
    throw invalid(
      'Missing parameter: header Content-Type: application/json or header Content-Type: application/x-www-form-urlencoded',
    );
  }
  const name = asString(body.name);
  const password = asString(body.password);
  const token = asString(body.token);
  if (!(name && password) && !token) {
    throw invalid('Expecting to find name and password or token in body request');
  }
  // `code`: Gatehouse's addition for accounts with two-factor sign-in (docs/api.md).
  const code = asString(body.code);
  return {
    ...(name && password ? { name, password } : {}),
    ...(token ? { token } : {}),
    ...(name && password && code ? { code } : {}),
  };
}

/** Keyrock's user fields as the domain names them (`username` is the display name). */
export interface UserFields {
  displayName?: unknown;
  email?: unknown;
  password?: unknown;
  description?: unknown;
  website?: unknown;
  /** PATCH only: an administrator disables or enables someone else's account. */
  enabled?: unknown;
}

function userObject(body: Record<string, unknown>): Record<string, unknown> {
  const user = body.user;
  if (typeof user !== 'object' || user === null || Array.isArray(user)) {
    throw invalid('Missing parameter user in body request');
  }
  return user as Record<string, unknown>;
}

function fields(user: Record<string, unknown>): UserFields {
  const out: UserFields = {};
  if (user.username !== undefined) out.displayName = user.username;
  if (user.email !== undefined) out.email = user.email;
  if (user.password !== undefined) out.password = user.password;
  if (user.description !== undefined) out.description = user.description;
  if (user.website !== undefined) out.website = user.website;
  return out;
}

/** POST /v1/users: `{user: {username, email, password, description?, website?}}`. */
export function newUserBody(
  contentType: string | undefined,
  text: string,
): UserFields & { email: unknown; password: unknown } {
  const user = userObject(jsonObject(contentType, text));
  for (const field of ['username', 'password', 'email']) {
    if (user[field] === undefined || user[field] === null || user[field] === '') {
      throw invalid(`Missing parameter ${field} in body request or empty ${field}`, field);
    }
  }
  return { ...fields(user), email: user.email, password: user.password };
}

/** PATCH /v1/users/:id: `{user: {…}}` with any of the fields; the id cannot change. */
export function userChangesBody(contentType: string | undefined, text: string): UserFields {
  const user = userObject(jsonObject(contentType, text));
  if (user.id !== undefined) throw invalid('Cannot set id', 'id');
  for (const field of ['username', 'email', 'password']) {
    if (user[field] === '' || user[field] === null) throw invalid(`Cannot set empty ${field}`, field);
  }
  return { ...fields(user), ...(user.enabled !== undefined ? { enabled: user.enabled } : {}) };
}
