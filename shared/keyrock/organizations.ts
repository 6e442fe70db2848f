import type { ChangedOrgField, OwnOrganization } from '../domain/organizations.js';
import { invalid, notFound } from '../errors.js';
import type { MemberRole } from '../model.js';
import type { Membership, Organization } from '../store/organizations.js';
import { jsonObject } from './request.js';

/**
 * Keyrock's JSON shapes for organizations and their members (controllers/api/organizations.js,
 * user_organization_assignments.js, apiary.apib). As for users, an organization moved from
 * Keyrock keeps its Keyrock id (a UUID) and any other goes out as its integer id in decimal;
 * member user ids are the members' Gatehouse ids in decimal (a membership item does not carry
 * the user's Keyrock id; /v1/users/:id accepts both forms).
 */
export const organizationKeyrockId = (org: Pick<Organization, 'id' | 'keyrockId'>) =>
  org.keyrockId ?? String(org.id);

/** Gatehouse keeps no organization images; Keyrock's value for "none uploaded". */
const IMAGE = 'default';

/** GET /v1/organizations/:id `organization` (every column, `website` null when unset). */
export function organizationBody(org: Organization) {
  return {
    id: organizationKeyrockId(org),
    name: org.name,
    description: org.description,
    website: org.website ?? null,
    image: IMAGE,
  };
}

/** GET /v1/organizations: the caller's organizations, each with the caller's role. */
export function organizationListBody(own: OwnOrganization[]) {
  return { organizations: own.map(({ role, org }) => ({ role, Organization: organizationBody(org) })) };
}

/** POST /v1/organizations `organization`: what was stored (`website` only when given). */
export function createdOrganizationBody(org: Organization) {
  return {
    id: organizationKeyrockId(org),
    image: IMAGE,
    name: org.name,
    description: org.description,
    ...(org.website ? { website: org.website } : {}),
  };
}

/**
 * PATCH /v1/organizations/:id: the new values of what changed, or Keyrock's 200 message when
 * the request changed nothing.
 */
export function updatedOrganizationBody(org: Organization, changed: ChangedOrgField[]) {
  if (changed.length === 0) {
    return { message: "Request don't change the organization parameters", code: 200, title: 'OK' };
  }
  const values: Record<string, string | null> = {};
  for (const field of changed) values[field] = field === 'website' ? (org.website ?? null) : org[field];
  return { values_updated: values };
}

/** One membership as Keyrock lists it: `{user_id, organization_id, role}`. */
export function assignmentBody(m: Membership) {
  return {
    user_id: String(m.userId),
    organization_id: m.orgKeyrockId ?? String(m.orgId),
    role: m.role,
  };
}

/** GET /v1/organizations/:id/users (Keyrock answers 404 for none; an organization always has its owner). */
export function membersBody(members: Membership[]) {
  if (members.length === 0) throw notFound('Assignments not found');
  return { organization_users: members.map(assignmentBody) };
}

/** PUT/POST …/organization_roles/:role: Keyrock lists the role first. */
export function assignedBody(m: Membership) {
  const { user_id, organization_id, role } = assignmentBody(m);
  return { user_organization_assignments: { role, user_id, organization_id } };
}

/** The `:role` path segment: `owner` or `member`, else Keyrock's 404. */
export function organizationRole(raw: string): MemberRole {
  if (raw === 'owner' || raw === 'member') return raw;
  throw notFound('Organization role not found');
}

function organizationObject(contentType: string | undefined, text: string): Record<string, unknown> {
  const body = jsonObject(contentType, text);
  const org = body.organization;
  if (typeof org !== 'object' || org === null || Array.isArray(org)) {
    throw invalid('Missing parameter organization in body request', 'organization');
  }
  return org as Record<string, unknown>;
}

export interface OrganizationFields {
  name?: unknown;
  description?: unknown;
  website?: unknown;
}

/**
 * Keyrock ignores a field that is empty (it keeps the current value); so does this, field by
 * field, and the domain validates the rest.
 */
function fields(org: Record<string, unknown>): OrganizationFields {
  const out: OrganizationFields = {};
  for (const key of ['name', 'description', 'website'] as const) {
    if (org[key] !== undefined && org[key] !== null && org[key] !== '') out[key] = org[key];
  }
  return out;
}

/** POST /v1/organizations: `{organization: {name, description?, website?}}`. */
export function newOrganizationBody(
  contentType: string | undefined,
  text: string,
): OrganizationFields & { name: unknown } {
  const org = organizationObject(contentType, text);
  if (org.name === undefined || org.name === null || org.name === '') {
    throw invalid('Missing parameter name in body request or empty name', 'name');
  }
  return { ...fields(org), name: org.name };
}

/** PATCH /v1/organizations/:id: `{organization: {…}}`; the id cannot change. */
export function organizationChangesBody(contentType: string | undefined, text: string): OrganizationFields {
  const org = organizationObject(contentType, text);
  if (org.id !== undefined && org.id !== null && org.id !== '') throw invalid('Cannot set id', 'id');
  return fields(org);
}
