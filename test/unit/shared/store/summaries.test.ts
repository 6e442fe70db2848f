import { describe, expect, it } from 'vitest';
import {
  catalogueItem,
  roleIdsFrom,
  rulesFromSummary,
  SUMMARY_VERSION,
} from '../../../../shared/store/summaries.js';

const provider = { id: 1, appId: 9, name: 'Provider', builtIn: 'provider' as const };
const purchaser = { id: 2, appId: 9, name: 'Purchaser', builtIn: 'purchaser' as const };

describe('the catalogue summary', () => {
  it('reads back the roles of a new application’s summary', () => {
    const rules = rulesFromSummary(catalogueItem(9, [purchaser, provider]), 9);
    expect(rules).toEqual({ roles: [provider, purchaser], permissions: [], switches: new Map() });
  });

  it('reads roles, permission rules and switches from their attributes, ignoring the rest', () => {
    const item = {
      ...catalogueItem(9, [provider]),
      r7: { name: 'Reader' },
      p11: { verb: 'GET', path: '/orders' },
      p12: { verb: 'POST', path: '/orders' },
      s7: new Set([11]),
      ver: 4,
      touched: 'x',
    };
    const rules = rulesFromSummary(item, 9)!;
    expect(rules.roles.map((r) => r.name)).toEqual(['Provider', 'Reader']);
    expect(rules.permissions).toEqual([
      { id: 11, verb: 'GET', path: '/orders' },
      { id: 12, verb: 'POST', path: '/orders' },
    ]);
    expect(rules.switches.get(7)).toEqual(new Set([11]));
  });

  it('is not trusted until it is complete', () => {
    expect(rulesFromSummary(undefined, 9)).toBeUndefined();
    expect(rulesFromSummary({ r7: { name: 'Reader' } }, 9)).toBeUndefined();
    expect(rulesFromSummary({ v: SUMMARY_VERSION }, 9)).toEqual({
      roles: [],
      permissions: [],
      switches: new Map(),
    });
  });
});

describe('an organization’s roles in an application', () => {
  it('reads the role set, and no roles for an absent item or an emptied set', () => {
    expect(roleIdsFrom({ roleIds: new Set([3, 1]) }, 'member').sort()).toEqual([1, 3]);
    expect(roleIdsFrom(undefined, 'owner')).toEqual([]);
    expect(roleIdsFrom({ appId: 1 }, 'member')).toEqual([]);
  });

  it('gives a member the whole organization’s roles and its members’, an owner the owners’', () => {
    const item = { roleIds: new Set([1]), memberRoleIds: new Set([2]), ownerRoleIds: new Set([3]) };
    expect(roleIdsFrom(item, 'member').sort()).toEqual([1, 2]);
    expect(roleIdsFrom(item, 'owner').sort()).toEqual([1, 3]);
  });
});
