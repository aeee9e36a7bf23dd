import { searchSchema } from '../../../shared/schemas/memories.js';
import { protectedProcedure, router } from '../../trpc/init.js';
import { searchChats } from './searchChats.js';

export const searchRouter = router({
  messages: protectedProcedure.input(searchSchema).query(({ ctx, input }) => searchChats(ctx, input)),
});
