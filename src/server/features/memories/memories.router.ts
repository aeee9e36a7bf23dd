import {
  chatMemoriesSchema,
  createMemorySchema,
  memoryRefSchema,
  memorySettingsSchema,
  undoMemorySchema,
  updateMemorySchema,
} from '../../../shared/schemas/memories.js';
import { protectedProcedure, router } from '../../trpc/init.js';
import {
  chatMemoryNotes,
  createMemory,
  deleteAllMemories,
  deleteMemory,
  getMemorySettings,
  listMemories,
  setMemorySettings,
  undoMemoryNote,
  updateMemory,
} from './manageMemories.js';

// Issue 24: a session or an API key may use every procedure (the user's own data).
export const memoriesRouter = router({
  list: protectedProcedure.query(({ ctx }) => listMemories(ctx)),
  create: protectedProcedure.input(createMemorySchema).mutation(({ ctx, input }) => createMemory(ctx, input)),
  update: protectedProcedure.input(updateMemorySchema).mutation(({ ctx, input }) => updateMemory(ctx, input)),
  delete: protectedProcedure.input(memoryRefSchema).mutation(({ ctx, input }) => deleteMemory(ctx, input)),
  deleteAll: protectedProcedure.mutation(({ ctx }) => deleteAllMemories(ctx)),
  settings: protectedProcedure.query(({ ctx }) => getMemorySettings(ctx)),
  setSettings: protectedProcedure.input(memorySettingsSchema).mutation(({ ctx, input }) => setMemorySettings(ctx, input)),
  /** The replies in a chat that stored memories ('Memory updated' notes). */
  chatNotes: protectedProcedure.input(chatMemoriesSchema).query(({ ctx, input }) => chatMemoryNotes(ctx, input)),
  undo: protectedProcedure.input(undoMemorySchema).mutation(({ ctx, input }) => undoMemoryNote(ctx, input)),
});
