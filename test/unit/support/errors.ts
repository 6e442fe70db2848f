import { expect } from 'vitest';
import { AppError } from '../../../shared/errors.js';

/**
 * The AppError `fn` throws. Fails the test when `fn` returns normally or throws anything else, so
 * assertions on the result are never skipped.
 */
export function thrown(fn: () => unknown): AppError {
  let caught: unknown;
  try {
    fn();
  } catch (error) {
    caught = error;
  }
  expect(caught, 'expected an AppError to be thrown').toBeInstanceOf(AppError);
  return caught as AppError;
}
