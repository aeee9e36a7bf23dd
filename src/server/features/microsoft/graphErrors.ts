import { TRPCError } from '@trpc/server';
import { microsoftTexts } from '../../../shared/texts/microsoft.js';
import { GraphRequestError } from '../../providers/microsoft/graphMail.js';
import { IdentityError } from '../../providers/microsoft/identity.js';
import { microsoftSignInTexts } from '../../../shared/texts/microsoftSignIn.js';
import { ReconnectNeededError, SignedOutByMicrosoftError } from './connections.js';

// Microsoft's answers as the app's: a person reads what to do, never Graph's internals, and a
// refused token is a reconnect, not a failure of this app (so not a 5xx when we can help it).
export function asPublicError(error: unknown, fallback: string): TRPCError {
  if (error instanceof TRPCError) return error;
  if (error instanceof SignedOutByMicrosoftError) return new TRPCError({ code: 'UNAUTHORIZED', message: microsoftSignInTexts.errors.signedOut });
  if (error instanceof ReconnectNeededError) return new TRPCError({ code: 'PRECONDITION_FAILED', message: microsoftTexts.reconnect });
  if (error instanceof GraphRequestError) {
    if (error.status === 401 || error.status === 403) return new TRPCError({ code: 'PRECONDITION_FAILED', message: microsoftTexts.reconnect });
    if (error.status === 404) return new TRPCError({ code: 'NOT_FOUND', message: microsoftTexts.folderNotFound });
    if (error.status === 409) return new TRPCError({ code: 'CONFLICT', message: microsoftTexts.folderExists });
    if (error.status === 400) return new TRPCError({ code: 'BAD_REQUEST', message: error.code === 'invalidPageLink' ? microsoftTexts.badPageToken : fallback });
    if (error.status === 429 || error.status === 503) return new TRPCError({ code: 'TOO_MANY_REQUESTS', message: `${fallback}. Microsoft is busy; please try again in a minute.` });
    return new TRPCError({ code: 'BAD_GATEWAY', message: fallback, cause: error });
  }
  if (error instanceof IdentityError) return new TRPCError({ code: 'BAD_GATEWAY', message: microsoftTexts.signInFailed, cause: error });
  return new TRPCError({ code: 'BAD_GATEWAY', message: fallback, cause: error });
}
