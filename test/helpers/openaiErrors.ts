import { APIError } from 'openai';

/** The openai SDK's error from a call that must fail (fails the test when the call succeeds). */
export async function apiError(promise: Promise<unknown>): Promise<APIError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof APIError) return error;
    throw error;
  }
  throw new Error('expected an API error');
}
