import { createApiKeySchema, revokeApiKeySchema } from '../../../shared/schemas/apiKeys.js';
import { accountProcedure, router } from '../../trpc/init.js';
import { createApiKey, listApiKeys, revokeApiKey } from './manageApiKeys.js';

// Keys are managed by a registered account's own browser session only: never with a key (a
// leaked key must not mint more), never from a guest space.
export const apiKeysRouter = router({
  list: accountProcedure.query(({ ctx }) => listApiKeys(ctx)),
  create: accountProcedure.input(createApiKeySchema).mutation(({ ctx, input }) => createApiKey(ctx, input)),
  revoke: accountProcedure.input(revokeApiKeySchema).mutation(({ ctx, input }) => revokeApiKey(ctx, input)),
});
