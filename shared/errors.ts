/**
 * Domain errors: what went wrong in terms a caller can act on. The HTTP layer maps each kind to a
 * status in one place (shared/http/errors.ts); repositories translate DynamoDB's conditional
 * failures into these at their boundary.
 */
export type ErrorKind = 'validation' | 'unauthorized' | 'forbidden' | 'not_found' | 'conflict' | 'too_many';

export class AppError extends Error {
  constructor(
    readonly kind: ErrorKind,
    message: string,
    /** The input field the error concerns, for field-level messages in the portal. */
    readonly field?: string,
  ) {
    super(message);
    this.name = 'AppError';
  }
}

export const invalid = (message: string, field?: string) => new AppError('validation', message, field);
export const notFound = (message: string) => new AppError('not_found', message);
export const conflict = (message: string, field?: string) => new AppError('conflict', message, field);
export const forbidden = (message: string) => new AppError('forbidden', message);
export const unauthorized = (message: string) => new AppError('unauthorized', message);
