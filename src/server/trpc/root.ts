import { aiRouter } from '../features/ai/ai.router.js';
import { authRouter } from '../features/auth/auth.router.js';
import { chatsRouter } from '../features/chats/chats.router.js';
import { profileRouter } from '../features/profile/profile.router.js';
import { createCallerFactory, router } from './init.js';

export const appRouter = router({
  ai: aiRouter,
  auth: authRouter,
  chats: chatsRouter,
  profile: profileRouter,
});

export type AppRouter = typeof appRouter;
export const createCaller = createCallerFactory(appRouter);
