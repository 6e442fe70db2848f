import type { ApiCaller, IssuedApiToken } from '../domain/api-tokens.js';
import type { ChangedField } from '../domain/user-admin.js';
import type { IdmTotals } from '../store/stats.js';
import type { User } from '../store/users.js';

/**
 * Keyrock's JSON shapes for users, API tokens and the service totals (controllers/api/users.js,
 * authenticate.js, service_provider.js). A user moved from Keyrock keeps the id Keyrock gave it
 * (a UUID), so scripts that stored it keep working; any other user's integer id goes out as a
 * decimal string. Keyrock's ids are strings, and its clients only ever send them back in paths.
 */
export const keyrockId = (user: Pick<User, 'id' | 'keyrockId'>) => user.keyrockId ?? String(user.id);

const orNull = (value: string | undefined) => (value ? value : null);

/** GET /v1/users/:id `user`. */
export function userBody(user: User) {
  return {
    id: keyrockId(user),
    username: user.displayName,
    email: user.email,
    // False once an administrator disabled the account (portal or PATCH {user: {enabled}}).
    enabled: user.enabled !== false,
    admin: user.admin === true,
    image: 'default',
    gravatar: false,
    date_password: user.datePassword ?? user.createdAt,
    description: orNull(user.description),
    website: orNull(user.website),
  };
}

/** An entry of GET /v1/users `users` (Keyrock lists no `admin` or `image` there). */
export function userListEntry(user: User) {
  const { admin: _admin, image: _image, ...entry } = userBody(user);
  return entry;
}

/** POST /v1/users `user`: what was stored, without the password. */
export function createdUserBody(user: User) {
  return {
    id: keyrockId(user),
    image: 'default',
    gravatar: false,
    enabled: true,
    admin: user.admin === true,
    username: user.displayName,
    email: user.email,
    date_password: user.datePassword ?? user.createdAt,
    ...(user.description ? { description: user.description } : {}),
    ...(user.website ? { website: user.website } : {}),
  };
}

const KEYROCK_FIELD: Record<
  Exclude<ChangedField, 'password' | 'enabled'>,
  'username' | 'email' | 'description' | 'website'
> = {
  displayName: 'username',
  email: 'email',
  description: 'description',
  website: 'website',
};

/**
 * PATCH /v1/users/:id: the new values of what changed (never the password or its date), or
 * Keyrock's 200 message when the request changed nothing.
 */
export function updatedUserBody(user: User, changed: ChangedField[]) {
  if (changed.length === 0) {
    return { message: "Request don't change the user parameters", code: 200, title: 'OK' };
  }
  const values: Record<string, string | boolean | null> = {};
  for (const field of changed) {
    if (field === 'password') continue;
    if (field === 'enabled') {
      values.enabled = user.enabled !== false;
      continue;
    }
    values[KEYROCK_FIELD[field]] =
      field === 'email' || field === 'displayName' ? user[field] : orNull(user[field]);
  }
  return { values_updated: values };
}

/** Keyrock's authorization settings: roles and HTTP verb + path permissions, no AuthzForce. */
const AUTHORIZATION_CONFIG = { level: 'basic', authzforce: false } as const;

/** POST /v1/auth/tokens (the value itself goes in X-Subject-Token). */
export function issuedTokenBody(issued: IssuedApiToken) {
  return {
    token: { methods: issued.methods, expires_at: new Date(issued.expiresAt * 1000).toISOString() },
    idm_authorization_config: AUTHORIZATION_CONFIG,
  };
}

/** GET /v1/auth/tokens: the subject token and its user. */
export function tokenInfoBody(value: string, subject: ApiCaller) {
  const { user } = subject;
  return {
    access_token: value,
    expires: new Date(subject.token.expiresAt * 1000).toISOString(),
    valid: true,
    User: {
      id: keyrockId(user),
      username: user.displayName,
      email: user.email,
      date_password: user.datePassword ?? user.createdAt,
      enabled: user.enabled !== false,
      admin: user.admin === true,
    },
  };
}

/** GET /v1/service_providers/configs (Keyrock's code answers snake_case, whatever its apiary says). */
export function serviceInformationBody(totals: IdmTotals) {
  return {
    information: {
      total_users: totals.users,
      total_organizations: totals.organizations,
      total_applications: totals.applications,
    },
  };
}
