import { z } from 'zod';
import { endSessionSchema, loginSchema, registerSchema, setPasswordSchema } from '../../../shared/schemas/auth.js';
import { accountProcedure, browserSessionProcedure, publicProcedure, router, userProcedure } from '../../trpc/init.js';
import { setPassword, unlinkMicrosoft } from './accountSignIn.js';
import { microsoftLinkStatus } from './microsoftSignIn.js';
import { endOtherSessions, endSession, listSessions } from './activeSessions.js';
import { checkAccess } from './checkAccess.js';
import { login } from './login.js';
import { logout } from './logout.js';
import { register } from './register.js';
import { isOrgAdmin } from '../organisations/index.js';

export const authRouter = router({
  register: publicProcedure.input(registerSchema).mutation(({ ctx, input }) => register(ctx, input)),
  login: publicProcedure.input(loginSchema).mutation(({ ctx, input }) => login(ctx, input)),
  logout: publicProcedure.mutation(({ ctx }) => logout(ctx)),
  // Who the request is: any key may ask.
  session: userProcedure.meta({ keys: 'any' }).query(({ ctx }) => ({
    user: ctx.user?.toPublic() ?? null,
    demoMode: ctx.deps.config.demoMode,
    signedIn: Boolean(ctx.session.userId) && ctx.user !== null,
    // A demo visitor (the template, before their first write) or their private guest space: no
    // integrations until they create an account.
    guest: ctx.user ? ctx.user.isGuest || ctx.user.isDemo : false,
    // What /login and /register offer: 'Sign in with Microsoft' when it is configured, the
    // username and password forms unless PASSWORD_LOGIN=false.
    microsoftSignIn: Boolean(ctx.deps.microsoft.identity),
    passwordLogin: ctx.deps.config.passwordLogin,
    // Whether the app shows the organisation's console (/admin); the admin procedures decide for themselves.
    orgAdmin: ctx.user ? isOrgAdmin(ctx.user, ctx.deps.config.organisation.admins) : false,
  })),
  microsoftLink: accountProcedure.query(({ ctx }) => microsoftLinkStatus(ctx)),
  unlinkMicrosoft: accountProcedure.mutation(({ ctx }) => unlinkMicrosoft(ctx)),
  setPassword: accountProcedure.input(setPasswordSchema).mutation(({ ctx, input }) => setPassword(ctx, input)),
  checkAccess: publicProcedure
    .input(z.object({ accessKey: z.string().max(1024).optional() }))
    .mutation(({ ctx, input }) => checkAccess(ctx, input.accessKey)),
  sessions: browserSessionProcedure.query(({ ctx }) => listSessions(ctx)),
  endSession: browserSessionProcedure.input(endSessionSchema).mutation(({ ctx, input }) => endSession(ctx, input)),
  endOtherSessions: browserSessionProcedure.mutation(({ ctx }) => endOtherSessions(ctx)),
});
