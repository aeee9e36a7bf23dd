import { authTexts } from '../../../shared/texts';
import { errorMessage, errorStatus, fieldErrorsOf } from '../../lib/errors';

// How a failed login or registration reads in the auth dialog (the product spec's error catalogue): the form's own
// message, the toast's body, and the server's per-field messages to copy under the fields.
export type AuthFailure = { formMessage: string | null; toastBody: string; fieldErrors: Record<string, string> };

export function loginFailure(error: unknown): AuthFailure {
  return describe(error, { status: 401, message: authTexts.invalidCredentials }, authTexts.loginFailedBody);
}

export function registerFailure(error: unknown): AuthFailure {
  return describe(error, { status: 409, message: authTexts.usernameTaken }, authTexts.registrationFailedBody);
}

function describe(error: unknown, expected: { status: number; message: string }, toastBody: string): AuthFailure {
  const status = errorStatus(error);
  if (status === expected.status) return { formMessage: expected.message, toastBody, fieldErrors: {} };
  if (status === 400) {
    // Normally caught by the same schema in the browser; the server may still know more.
    const fieldErrors = fieldErrorsOf(error);
    const formMessage = Object.keys(fieldErrors).length ? null : errorMessage(error, authTexts.unexpectedError);
    return { formMessage, toastBody, fieldErrors };
  }
  if (status === 429) {
    // Too many attempts: the server's message says how long to wait.
    const message = errorMessage(error, authTexts.unexpectedError);
    return { formMessage: message, toastBody: message, fieldErrors: {} };
  }
  return { formMessage: authTexts.unexpectedError, toastBody, fieldErrors: {} };
}
