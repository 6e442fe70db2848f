import type { UserInApp } from './user-info.js';

export type Decision = 'Permit' | 'Deny';

/**
 * Keyrock's PEP-proxy decision: Permit when any role the user holds in the application, directly
 * or through an organization, has a switched-on permission with exactly this verb and this path.
 * Anything else, including an unknown verb, is Deny.
 */
export function decide(info: UserInApp, action: string, resource: string): Decision {
  const verb = action.toUpperCase();
  const matching = new Set(
    info.catalogue.permissions.filter((p) => p.verb === verb && p.path === resource).map((p) => p.id),
  );
  if (matching.size === 0) return 'Deny';
  const roleIds = [...info.direct, ...info.memberships.flatMap((m) => m.roles)].map((r) => r.id);
  for (const roleId of roleIds) {
    const on = info.catalogue.switches.get(roleId);
    if (on && [...on].some((p) => matching.has(p))) return 'Permit';
  }
  return 'Deny';
}
