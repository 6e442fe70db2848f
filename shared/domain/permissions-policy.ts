import { forbidden, notFound } from '../errors.js';
import type { Application } from '../store/applications.js';
import type { Db } from '../store/db.js';
import { getMembership, type Membership } from '../store/organizations.js';
import type { RoleRules } from '../store/summaries.js';
import { builtInsHeld, resolveRoles } from './roles.js';

/**
 * Who may do what in the portal. The API enforces these rules (403); the portal only uses the
 * same answers to hide what a person cannot do.
 *
 * - Provider (held directly, or through an organization one belongs to) may edit or delete an
 *   application, manage its roles and permissions, reset its secret and change its logo.
 * - Provider and Purchaser may authorize users and organizations.
 * - Only members may act for an organization (shared/domain/organizations.ts decides the rest).
 */
export interface ApplicationAccess {
  app: Application;
  /** The application's roles, permission rules and switches (read for the check anyway). */
  rules: RoleRules;
  /** Provider: edit, delete, roles and permissions, secret, logo. */
  manage: boolean;
  /** Provider or Purchaser: authorize users and organizations. */
  authorize: boolean;
}

/** Asks the role resolver (shared/domain/roles.ts) which built-in roles the user holds. */
export async function applicationAccess(db: Db, userId: number, appId: number): Promise<ApplicationAccess> {
  const resolved = await resolveRoles(db, userId, appId, { withApplication: true });
  if (!resolved?.application) throw notFound(`Application ${appId} does not exist.`);
  const builtIns = builtInsHeld(resolved);
  return {
    app: resolved.application,
    rules: resolved.rules,
    manage: builtIns.has('provider'),
    authorize: builtIns.has('provider') || builtIns.has('purchaser'),
  };
}

export async function requireProvider(db: Db, userId: number, appId: number): Promise<ApplicationAccess> {
  const access = await applicationAccess(db, userId, appId);
  if (!access.manage) {
    throw forbidden('Only users holding the Provider role in this application may do this.');
  }
  return access;
}

export async function requireAuthorizer(db: Db, userId: number, appId: number): Promise<ApplicationAccess> {
  const access = await applicationAccess(db, userId, appId);
  if (!access.authorize) {
    throw forbidden('Only users holding the Provider or Purchaser role in this application may do this.');
  }
  return access;
}

export async function requireMember(db: Db, orgId: number, userId: number): Promise<Membership> {
  const membership = await getMembership(db, orgId, userId);
  if (!membership) throw forbidden('Only members of this organization may do this.');
  return membership;
}
