import {
  chatMemoriesSchema,
  createMemorySchema,
  memoryRefSchema,
  memorySettingsSchema,
  restoreMemorySchema,
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
import { restoreMemory } from './memoryRestore.js';

// A session may use every procedure (the user's own data); an API key with the
// `memories` scope too.
const memoriesProcedure = protectedProcedure.meta({ keys: ['memories'] });

export const memoriesRouter = router({
  list: memoriesProcedure.query(({ ctx }) => listMemories(ctx)),
  create: memoriesProcedure.input(createMemorySchema).mutation(({ ctx, input }) => createMemory(ctx, input)),
  update: memoriesProcedure.input(updateMemorySchema).mutation(({ ctx, input }) => updateMemory(ctx, input)),
  delete: memoriesProcedure.input(memoryRefSchema).mutation(({ ctx, input }) => deleteMemory(ctx, input)),
  /** The Undo of 'Memory deleted': the memory back as it was, from the token the delete answered. */
  restore: memoriesProcedure.input(restoreMemorySchema).mutation(({ ctx, input }) => restoreMemory(ctx, input)),
  deleteAll: memoriesProcedure.mutation(({ ctx }) => deleteAllMemories(ctx)),
  settings: memoriesProcedure.query(({ ctx }) => getMemorySettings(ctx)),
  setSettings: memoriesProcedure.input(memorySettingsSchema).mutation(({ ctx, input }) => setMemorySettings(ctx, input)),
  /** The replies in a chat that stored memories ('Memory updated' notes). */
  chatNotes: memoriesProcedure.input(chatMemoriesSchema).query(({ ctx, input }) => chatMemoryNotes(ctx, input)),
  undo: memoriesProcedure.input(undoMemorySchema).mutation(({ ctx, input }) => undoMemoryNote(ctx, input)),
});
