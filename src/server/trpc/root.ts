import { authRouter } from '../features/auth/auth.router.js';
import { createCallerFactory, router } from './init.js';

export const appRouter = router({
  auth: authRouter,
});

export type AppRouter = typeof appRouter;
export const createCaller = createCallerFactory(appRouter);
