import { invalid } from '../errors.js';
import {
  applicationChangesBody,
  newApplicationBody,
  newPermissionBody,
  newRoleBody,
  permissionChangesBody,
  roleChangesBody,
} from '../keyrock/applications.js';
import { newOrganizationBody, organizationChangesBody } from '../keyrock/organizations.js';
import { newUserBody, tokenRequest, type UserFields, userChangesBody } from '../keyrock/request.js';
import type { Application } from '../store/applications.js';
import type { Permission } from '../store/roles.js';
import { header, rawBody } from './request.js';
import type { HttpEvent } from './types.js';

/**
 * Keyrock's request pieces, taken from an event and handed to the wire-format parsers in
 * shared/keyrock/ (which know no events).
 */
const text = (event: HttpEvent) => rawBody(event).toString('utf8');
const type = (event: HttpEvent) => header(event, 'content-type');

export const tokenRequestOf = (event: HttpEvent) => tokenRequest(type(event), text(event));
export const newUserOf = (event: HttpEvent) => newUserBody(type(event), text(event));
export const userChangesOf = (event: HttpEvent): UserFields => userChangesBody(type(event), text(event));
export const newOrganizationOf = (event: HttpEvent) => newOrganizationBody(type(event), text(event));
export const organizationChangesOf = (event: HttpEvent) => organizationChangesBody(type(event), text(event));

/** `X-Subject-Token`: the token GET and DELETE /v1/auth/tokens are about. */
export function subjectToken(event: HttpEvent): string {
  const value = header(event, 'x-subject-token');
  if (!value) throw invalid('Expecting to find X-Subject-token in requests');
  return value;
}

/**
 * Keyrock refuses a POST, PATCH or PUT whose Content-Type is not JSON even when the route reads
 * no body (its token check does this for every /v1 write): the role assignment routes.
 */
export function requireJsonType(event: HttpEvent): void {
  if (!(type(event) ?? '').toLowerCase().startsWith('application/json')) {
    throw invalid('Missing parameter: header Content-Type: application/json');
  }
}

export const newApplicationOf = (event: HttpEvent) => newApplicationBody(type(event), text(event));
export const applicationChangesOf = (event: HttpEvent, current: Application) =>
  applicationChangesBody(type(event), text(event), current);
export const newRoleOf = (event: HttpEvent) => newRoleBody(type(event), text(event));
export const roleChangesOf = (event: HttpEvent) => roleChangesBody(type(event), text(event));
export const newPermissionOf = (event: HttpEvent) => newPermissionBody(type(event), text(event));
export const permissionChangesOf = (event: HttpEvent, current: Permission) =>
  permissionChangesBody(type(event), text(event), current);
