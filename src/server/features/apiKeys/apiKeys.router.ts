import { TRPCError } from '@trpc/server';
import { createApiKeySchema, revokeApiKeySchema } from '../../../shared/schemas/apiKeys.js';
import { apiKeyTexts } from '../../../shared/texts/index.js';
import { protectedProcedure, router } from '../../trpc/init.js';
import { createApiKey, listApiKeys, revokeApiKey } from './manageApiKeys.js';

// Keys are managed with a signed-in browser session only: never with a key (a leaked key must
// not mint more), and never as the shared demo visitor, who has no session of their own.
const sessionProcedure = protectedProcedure.use(({ ctx, next }) => {
  if (ctx.session.viaApiKey) throw new TRPCError({ code: 'FORBIDDEN', message: apiKeyTexts.sessionOnly });
  if (!ctx.session.id) throw new TRPCError({ code: 'UNAUTHORIZED', message: apiKeyTexts.signInFirst });
  return next();
});

export const apiKeysRouter = router({
  list: sessionProcedure.query(({ ctx }) => listApiKeys(ctx)),
  create: sessionProcedure.input(createApiKeySchema).mutation(({ ctx, input }) => createApiKey(ctx, input)),
  revoke: sessionProcedure.input(revokeApiKeySchema).mutation(({ ctx, input }) => revokeApiKey(ctx, input)),
});
