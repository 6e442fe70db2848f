import type { Totals } from '../store/stats.js';

/** SCIM 2.0 ServiceProviderConfig as Keyrock serves it: totals as numeric strings. */
export const SCIM_SERVICE_PROVIDER_CONFIG_SCHEMA = 'urn:scim:schemas:core:2.0:ServiceProviderConfig';

export function serviceProviderConfig(totals: Totals, documentationUrl: string) {
  return {
    schemas: [SCIM_SERVICE_PROVIDER_CONFIG_SCHEMA],
    documentationUrl,
    totalUsers: String(totals.users),
    totalOrganizations: String(totals.organizations),
    totalResources: String(totals.users + totals.organizations),
  };
}
