import type { User } from '../store/users.js';

/**
 * Which user claims a scope releases (OIDC Core §5.4), for the ID token, UserInfo and the consent
 * page, so the three cannot disagree. Gatehouse holds no address or phone number.
 */
export function scopesOf(scope: string | undefined): Set<string> {
  return new Set((scope ?? '').split(' ').filter(Boolean));
}

/** OIDC Core §3.1.2.1: a request is an OpenID Connect request when its scope holds `openid`. */
export function isOpenIdScope(scope: string | undefined): boolean {
  return scopesOf(scope).has('openid');
}

/** OIDC Core §2: `sub` is the user's id, stable and never reassigned (ids come from a counter). */
export function subjectOf(userId: number): string {
  return String(userId);
}

/** The standard claims (OIDC Core §5.1) the scopes allow, besides `sub`. */
export function standardClaims(user: User, scopes: Set<string>): Record<string, string | boolean> {
  const claims: Record<string, string | boolean> = {};
  if (scopes.has('profile')) {
    claims.name = user.displayName;
    claims.nickname = user.nickName;
    claims.preferred_username = user.nickName;
    if (user.website) claims.website = user.website;
  }
  if (scopes.has('email')) {
    claims.email = user.email;
    // Gatehouse never confirms an address by mail, so it cannot claim one verified (§5.1).
    claims.email_verified = false;
  }
  return claims;
}

/** Every claim Gatehouse may release, for the discovery document's `claims_supported`. */
export const CLAIMS_SUPPORTED = [
  'sub',
  'iss',
  'aud',
  'exp',
  'iat',
  'auth_time',
  'amr',
  'nonce',
  'at_hash',
  'name',
  'nickname',
  'preferred_username',
  'website',
  'email',
  'email_verified',
  'roles',
  'organizations',
];

export const SCOPES_SUPPORTED = ['openid', 'profile', 'email'];

/** What the consent page tells the user an OpenID Connect request will release, by scope. */
export function consentLines(scope: string | undefined): string[] {
  const scopes = scopesOf(scope);
  const lines = ['your Gatehouse user id'];
  if (scopes.has('profile')) lines.push('your name, nickname and website');
  if (scopes.has('email')) lines.push('your email address');
  lines.push('the roles you and your organizations hold in it');
  return lines;
}
