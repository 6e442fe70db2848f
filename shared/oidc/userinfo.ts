import { tokenAndRoles } from '../domain/access-tokens.js';
import { keyrockRoles } from '../domain/lookups.js';
import { insufficientScope, invalidToken } from '../errors.js';
import type { Db } from '../store/db.js';
import { scopesOf, standardClaims, subjectOf } from './claims.js';

/**
 * GET / POST /oauth2/userinfo (OIDC Core §5.3): `sub`, the standard claims the token's scopes
 * allow, and Keyrock's roles and organizations in the token's application, from the same role
 * resolver GET /user asks (two round trips at most, the token read with the user).
 */
export async function userInfo(db: Db, bearer: string): Promise<Record<string, unknown>> {
  const { token, roles } = await tokenAndRoles(db, bearer);
  const scopes = scopesOf(token.scope);
  // OIDC Core §5.3: UserInfo serves access tokens of OpenID Connect requests only.
  if (!scopes.has('openid')) {
    throw insufficientScope('openid', 'This access token was not issued with the openid scope.');
  }
  if (token.userId === undefined) {
    throw insufficientScope('openid', 'This access token has no user (client credentials).');
  }
  if (!roles) throw invalidToken('The user of this access token no longer exists.');
  // §5.3.2: `sub` always; the other claims only as the scopes allow.
  return { sub: subjectOf(roles.user.id), ...standardClaims(roles.user, scopes), ...keyrockRoles(roles) };
}
