/**
 * Body shapes of the measured answers: enough to tell the answer the scenario names from an
 * error, an empty lookup or a half-read one (a user whose organizations came back without their
 * roles answers 200 too). Each returns what is wrong, or undefined.
 */
import type { Answer, Shape } from './answers.js';

type Json = Record<string, unknown>;

function parse(answer: Answer): { value: unknown } | { error: string } {
  try {
    return { value: JSON.parse(answer.body) as unknown };
  } catch {
    return { error: 'the body is not JSON' };
  }
}

/** A JSON object body checked by `check`. */
const object =
  (check: (body: Json) => string | undefined): Shape =>
  (answer) => {
    const parsed = parse(answer);
    if ('error' in parsed) return parsed.error;
    const body = parsed.value;
    if (typeof body !== 'object' || body === null || Array.isArray(body)) return 'the body is not an object';
    return check(body as Json);
  };

const roleCount = (value: unknown) => (Array.isArray(value) ? value.length : -1);

/** A token response (RFC 6749 §5.1); user grants also return a refresh token. */
export const tokenResponse = (withRefresh: boolean): Shape =>
  object((b) => {
    if (typeof b.access_token !== 'string' || b.access_token === '') return 'no access_token';
    if (String(b.token_type).toLowerCase() !== 'bearer') return `token_type ${String(b.token_type)}`;
    if (withRefresh && typeof b.refresh_token !== 'string') return 'no refresh_token';
    return undefined;
  });

/**
 * A client-credentials token response whose access token is an RFC 9068 JWT: a compact JWS whose
 * header says `typ: at+jwt` (not verified here; the lookups' tests do that).
 */
export const jwtTokenResponse: Shape = object((b) => {
  const wrong = tokenResponse(false)({ status: 200, headers: {}, body: JSON.stringify(b) });
  if (wrong) return wrong;
  const [header, payload, signature] = String(b.access_token).split('.');
  if (!header || !payload || !signature) return 'the access_token is not a JWT';
  try {
    const typ = (JSON.parse(Buffer.from(header, 'base64url').toString()) as Json).typ;
    return typ === 'at+jwt' ? undefined : `typ ${String(typ)} instead of at+jwt`;
  } catch {
    return 'the JWT header is not JSON';
  }
});

/**
 * GET /user or GET /users/:id for a user who holds a role directly and whose every organization
 * holds one too (the fixture's users): the right id, roles, every organization with its roles,
 * and, when asked, the decision.
 */
export const userWithRoles = (expected: {
  id: number;
  organizations: number;
  decision?: 'Permit' | 'Deny';
}): Shape =>
  object((b) => {
    if (b.id !== expected.id) return `id ${String(b.id)} instead of ${expected.id}`;
    if (roleCount(b.roles) < 1) return 'no roles';
    const orgs = Array.isArray(b.organizations) ? (b.organizations as Json[]) : undefined;
    if (orgs?.length !== expected.organizations) {
      return `${orgs?.length ?? 'no'} organizations instead of ${expected.organizations}`;
    }
    const bare = orgs.filter((o) => roleCount(o.roles) < 1).length;
    if (bare > 0) return `${bare} of ${orgs.length} organizations without roles`;
    if (expected.decision && b.authorization_decision !== expected.decision) {
      return `authorization_decision ${String(b.authorization_decision)} instead of ${expected.decision}`;
    }
    return undefined;
  });

/**
 * GET /user with a token of no user (client credentials): Keyrock answers with the application
 * only (models/model_oauth_server.js, search_app_info): `app_id`, and `trusted_apps`.
 */
export const applicationOnly = (clientId: string): Shape =>
  object((b) => {
    const keys = Object.keys(b).sort().join(', ');
    if (keys !== 'app_id, trusted_apps') return `keys ${keys} instead of app_id, trusted_apps`;
    return b.app_id === clientId ? undefined : `app_id ${String(b.app_id)} instead of ${clientId}`;
  });

/** GET /applications.json: a list holding the application. */
export const listsApplication =
  (appId: number): Shape =>
  (answer) => {
    const parsed = parse(answer);
    if ('error' in parsed) return parsed.error;
    if (!Array.isArray(parsed.value)) return 'the body is not a list';
    return (parsed.value as Json[]).some((a) => a.id === appId) ? undefined : `application ${appId} missing`;
  };

/**
 * GET /v2/ServiceProviderConfigs: SCIM's configuration with its totals, numeric strings as
 * Keyrock sends them; the fixture has users, so a total of 0 means the totals item was not read.
 */
export const scimConfig: Shape = object((b) => {
  if (!Array.isArray(b.schemas)) return 'no schemas';
  return /^[1-9]\d*$/.test(String(b.totalUsers)) ? undefined : `totalUsers ${String(b.totalUsers)}`;
});

/** A redirect to the client's callback carrying a code and the state sent. */
export const redirectWithCode =
  (callback: string, state: string): Shape =>
  (answer) => {
    const location = answer.headers.location ?? '';
    if (!location.startsWith(`${callback}?`)) return `location "${location.slice(0, 80)}"`;
    const params = new URL(location).searchParams;
    if (!params.get('code')) return 'no code in the redirect';
    return params.get('state') === state ? undefined : 'the state is not the one sent';
  };
