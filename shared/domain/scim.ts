import type { Db } from '../store/db.js';
import { type IdmTotals, idmTotals, totals } from '../store/stats.js';
import { type ApiCaller, requireAdmin } from './api-tokens.js';

/** SCIM 2.0 ServiceProviderConfig as Keyrock serves it: totals as numeric strings. */
export const SCIM_SERVICE_PROVIDER_CONFIG_SCHEMA = 'urn:scim:schemas:core:2.0:ServiceProviderConfig';

/**
 * The SCIM totals: one GetItem on the totals item, kept by atomic ADD with every user and
 * organization, never a Scan. Resources are users and organizations together.
 */
export async function scimTotals(
  db: Db,
): Promise<{ users: number; organizations: number; resources: number }> {
  const t = await totals(db);
  return { users: t.users, organizations: t.organizations, resources: t.users + t.organizations };
}

export async function serviceProviderConfig(db: Db, documentationUrl: string) {
  const t = await scimTotals(db);
  return {
    schemas: [SCIM_SERVICE_PROVIDER_CONFIG_SCHEMA],
    documentationUrl,
    totalUsers: String(t.users),
    totalOrganizations: String(t.organizations),
    totalResources: String(t.resources),
  };
}

/** GET /v1/service_providers/configs (administrators): the same totals item, one GetItem. */
export async function serviceTotals(db: Db, caller: ApiCaller): Promise<IdmTotals> {
  requireAdmin(caller);
  return idmTotals(db);
}
