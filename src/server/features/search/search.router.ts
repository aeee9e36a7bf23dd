import { searchSchema } from '../../../shared/schemas/memories.js';
import { protectedProcedure, router } from '../../trpc/init.js';
import { searchChats } from './searchChats.js';

export const searchRouter = router({
  // Searching the chats is a key's `chat` scope.
  messages: protectedProcedure.meta({ keys: ['chat'] }).input(searchSchema).query(({ ctx, input }) => searchChats(ctx, input)),
});
