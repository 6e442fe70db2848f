import { describe, expect, it } from 'vitest';
import { AppError } from '../../../../shared/errors.js';
import {
  assignedBody,
  assignmentBody,
  createdOrganizationBody,
  membersBody,
  newOrganizationBody,
  organizationBody,
  organizationChangesBody,
  organizationListBody,
  organizationRole,
  updatedOrganizationBody,
} from '../../../../shared/keyrock/organizations.js';
import type { Membership, Organization } from '../../../../shared/store/organizations.js';

const org: Organization = {
  id: 7,
  actorId: 40,
  name: 'Security',
  description: 'Store detectives',
  createdAt: '2024-01-01T00:00:00.000Z',
};
const moved: Organization = {
  ...org,
  keyrockId: 'security-team-0000-0000-000000000000',
  website: 'https://s.example',
};
const member: Membership = { orgId: 7, orgActorId: 40, orgName: 'Security', userId: 12, role: 'member' };

const JSON_TYPE = 'application/json';

function refused(run: () => unknown): { status: number; message: string } {
  try {
    run();
  } catch (error) {
    if (error instanceof AppError) return { status: error.status, message: error.message };
    throw error;
  }
  throw new Error('expected a refusal');
}

describe('Keyrock organization shapes', () => {
  it('reads an organization with a decimal id, website null and Keyrock’s default image', () => {
    expect(organizationBody(org)).toEqual({
      id: '7',
      name: 'Security',
      description: 'Store detectives',
      website: null,
      image: 'default',
    });
  });

  it('keeps the Keyrock id of a moved organization', () => {
    expect(organizationBody(moved)).toMatchObject({ id: moved.keyrockId, website: 'https://s.example' });
    expect(assignmentBody({ ...member, orgKeyrockId: moved.keyrockId })).toEqual({
      user_id: '12',
      organization_id: moved.keyrockId,
      role: 'member',
    });
  });

  it('lists with the role beside a capitalised Organization, as Keyrock’s include names it', () => {
    expect(organizationListBody([{ role: 'owner', org }])).toEqual({
      organizations: [{ role: 'owner', Organization: organizationBody(org) }],
    });
  });

  it('answers a creation with what was stored, website only when given', () => {
    expect(createdOrganizationBody(org)).toEqual({
      id: '7',
      image: 'default',
      name: 'Security',
      description: 'Store detectives',
    });
    expect(createdOrganizationBody(moved)).toHaveProperty('website', 'https://s.example');
  });

  it('answers an update with the changed values only, or Keyrock’s message', () => {
    expect(updatedOrganizationBody(moved, ['name', 'website'])).toEqual({
      values_updated: { name: 'Security', website: 'https://s.example' },
    });
    expect(updatedOrganizationBody(org, [])).toEqual({
      message: "Request don't change the organization parameters",
      code: 200,
      title: 'OK',
    });
  });

  it('shapes memberships as Keyrock’s assignments, role first after a PUT', () => {
    expect(membersBody([member])).toEqual({
      organization_users: [{ user_id: '12', organization_id: '7', role: 'member' }],
    });
    expect(Object.keys(assignedBody(member).user_organization_assignments)).toEqual([
      'role',
      'user_id',
      'organization_id',
    ]);
    expect(refused(() => membersBody([]))).toEqual({ status: 404, message: 'Assignments not found' });
  });

  it('accepts only owner and member as a role segment', () => {
    expect(organizationRole('owner')).toBe('owner');
    expect(organizationRole('member')).toBe('member');
    for (const raw of ['Owner', 'admin', '']) {
      expect(refused(() => organizationRole(raw))).toEqual({
        status: 404,
        message: 'Organization role not found',
      });
    }
  });
});

describe('Keyrock organization bodies', () => {
  it('reads a new organization, dropping empty optional fields', () => {
    const text = JSON.stringify({
      organization: { name: 'N', description: '', website: 'https://n.example' },
    });
    expect(newOrganizationBody(JSON_TYPE, text)).toEqual({ name: 'N', website: 'https://n.example' });
  });

  it('refuses what Keyrock refuses, in its words', () => {
    const cases: [string | undefined, unknown, string][] = [
      [
        'text/plain',
        { organization: { name: 'N' } },
        'Missing parameter: header Content-Type: application/json',
      ],
      [JSON_TYPE, { name: 'N' }, 'Missing parameter organization in body request'],
      [JSON_TYPE, { organization: [] }, 'Missing parameter organization in body request'],
      [JSON_TYPE, { organization: { name: '' } }, 'Missing parameter name in body request or empty name'],
    ];
    for (const [type, body, message] of cases) {
      expect(refused(() => newOrganizationBody(type, JSON.stringify(body)))).toEqual({
        status: 400,
        message,
      });
    }
  });

  it('reads changes, refusing a new id', () => {
    const text = JSON.stringify({ organization: { description: 'D', name: '' } });
    expect(organizationChangesBody(JSON_TYPE, text)).toEqual({ description: 'D' });
    const withId = JSON.stringify({ organization: { id: 'x' } });
    expect(refused(() => organizationChangesBody(JSON_TYPE, withId))).toEqual({
      status: 400,
      message: 'Cannot set id',
    });
  });
});
