import { invalid } from '../errors.js';
import { newUserBody, tokenRequest, type UserFields, userChangesBody } from '../keyrock/request.js';
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

/** `X-Subject-Token`: the token GET and DELETE /v1/auth/tokens are about. */
export function subjectToken(event: HttpEvent): string {
  const value = header(event, 'x-subject-token');
  if (!value) throw invalid('Expecting to find X-Subject-token in requests');
  return value;
}
