import { describe, expect, it } from 'vitest';
import { builtInsHeld, decide, holdsAnyRole, type ResolvedRoles } from '../../../../shared/domain/roles.js';

const provider = { id: 1, appId: 9, name: 'Provider', builtIn: 'provider' as const };
const purchaser = { id: 2, appId: 9, name: 'Purchaser', builtIn: 'purchaser' as const };
const reader = { id: 3, appId: 9, name: 'Reader' };
const permission = (id: number, verb: 'GET' | 'POST' | 'PATCH', path: string) => ({
  id,
  appId: 9,
  name: `p${id}`,
  description: '',
  verb,
  path,
});

function resolved(direct: (typeof reader)[], viaOrg: (typeof reader)[] = []): ResolvedRoles {
  return {
    user: { id: 5, actorId: 6, email: 'a@example.com', nickName: 'a', displayName: 'A', createdAt: '' },
    application: undefined,
    rules: {
      roles: [provider, purchaser, reader],
      permissions: [permission(10, 'GET', '/orders'), permission(11, 'POST', '/orders')],
      switches: new Map([[3, new Set([10])]]),
    },
    direct,
    memberships: viaOrg.length
      ? [
          {
            membership: { orgId: 4, orgActorId: 8, orgName: 'Acme', userId: 5, role: 'member' },
            roles: viaOrg,
          },
        ]
      : [],
  };
}

describe('decide (Keyrock’s Permit/Deny)', () => {
  it('permits a verb and path a held role has switched on, directly or through an organization', () => {
    expect(decide(resolved([reader]), 'GET', '/orders')).toBe('Permit');
    expect(decide(resolved([], [reader]), 'get', '/orders')).toBe('Permit');
  });

  it('denies a permission the role lacks, an unknown path, an unknown verb, and no roles at all', () => {
    expect(decide(resolved([reader]), 'POST', '/orders')).toBe('Deny');
    expect(decide(resolved([reader]), 'GET', '/orders/1')).toBe('Deny');
    expect(decide(resolved([reader]), 'PATCH', '/orders')).toBe('Deny');
    expect(decide(resolved([]), 'GET', '/orders')).toBe('Deny');
  });

  it('decides PATCH like any verb, as NGSI-v2 attribute updates reach a PEP proxy', () => {
    const r = resolved([reader]);
    r.rules.permissions.push(permission(13, 'PATCH', '/v2/entities/urn:Store:001/attrs'));
    r.rules.switches.get(3)!.add(13);
    expect(decide(r, 'PATCH', '/v2/entities/urn:Store:001/attrs')).toBe('Permit');
    expect(decide(r, 'PUT', '/v2/entities/urn:Store:001/attrs')).toBe('Deny');
  });

  it('runs a pattern permission (Keyrock’s is_regex) case-insensitively, on a bounded resource', () => {
    const r = resolved([reader]);
    r.rules.permissions.push({ id: 12, verb: 'GET', path: '^/items/[0-9]+$', isRegex: true });
    r.rules.switches.get(3)!.add(12);
    expect(decide(r, 'GET', '/items/42')).toBe('Permit');
    expect(decide(r, 'GET', '/ITEMS/42')).toBe('Permit');
    expect(decide(r, 'GET', '/items/x')).toBe('Deny');
    expect(decide(r, 'GET', `/items/${'1'.repeat(3000)}`)).toBe('Deny');
    // Without the flag the same text is a literal path.
    expect(decide(resolved([reader]), 'GET', '/items/42')).toBe('Deny');
  });

  it('applies a permission that requires a service header only with that header', () => {
    const r = resolved([reader]);
    r.rules.permissions[0] = { ...r.rules.permissions[0]!, requiredServiceHeader: 'tenant-a' };
    expect(decide(r, 'GET', '/orders', 'tenant-a')).toBe('Permit');
    expect(decide(r, 'GET', '/orders', 'tenant-b')).toBe('Deny');
    expect(decide(r, 'GET', '/orders')).toBe('Deny');
    expect(decide(resolved([reader]), 'GET', '/orders', 'anything')).toBe('Permit');
  });
});

describe('built-in roles and any role', () => {
  it('finds Provider or Purchaser held directly or through an organization', () => {
    expect([...builtInsHeld(resolved([provider]))]).toEqual(['provider']);
    expect([...builtInsHeld(resolved([reader], [purchaser]))]).toEqual(['purchaser']);
    expect(builtInsHeld(resolved([reader])).size).toBe(0);
  });

  it('tells whether a user holds any role in the application', () => {
    expect(holdsAnyRole(resolved([]))).toBe(false);
    expect(holdsAnyRole(resolved([], [reader]))).toBe(true);
  });
});
