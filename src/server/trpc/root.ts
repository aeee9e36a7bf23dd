import { authRouter } from '../features/auth/auth.router.js';
import { chatsRouter } from '../features/chats/chats.router.js';
import { createCallerFactory, router } from './init.js';

export const appRouter = router({
  auth: authRouter,
  chats: chatsRouter,
});

export type AppRouter = typeof appRouter;
export const createCaller = createCallerFactory(appRouter);
