import { expect } from 'vitest';
import { LoadError } from '../../../src/loaders/load-error.ts';

/** The LoadError `promise` rejects with; fails the test when it resolves or rejects with anything else. */
export async function loadErrorOf(promise: Promise<unknown>): Promise<LoadError> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(LoadError);
    return error as LoadError;
  }
  throw new Error('expected a LoadError, nothing was thrown');
}
