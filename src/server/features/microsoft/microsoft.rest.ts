import { Router } from 'express';
import type { AppDeps } from '../../deps.js';
import { restRoute } from '../../http/rest.js';
import { findInputProblem } from '../../http/inputBoundary.js';
import { finishMicrosoftSignIn, isSignInState, startMicrosoftSignIn } from '../auth/index.js';

// The product spec's REST calls Microsoft paths, answered by the microsoft router's procedures.
export function microsoftRestRoutes(deps: AppDeps): Router {
  const routes = Router();
  const query = (value: unknown) => (typeof value === 'string' ? value : undefined);
  routes.get('/api/auth/microsoft/login', restRoute(deps, (caller, req) => caller.microsoft.startBrowserSignIn({ service: query(req.query.service) as never })));
  // 'Sign in with Microsoft' and linking it in Settings: browser navigations, answered with redirects.
  routes.get('/api/auth/microsoft/sign-in', async (req, res, next) => {
    try {
      res.redirect(302, await startMicrosoftSignIn(deps, req, res, 'sign-in'));
    } catch (error) {
      next(error);
    }
  });
  routes.get('/api/auth/microsoft/link', async (req, res, next) => {
    try {
      res.redirect(302, await startMicrosoftSignIn(deps, req, res, 'link'));
    } catch (error) {
      next(error);
    }
  });
  // One callback for both flows (the app registration's one redirect URI): a sign-in's state starts with msi.
  routes.get('/api/auth/microsoft/callback', async (req, res, next) => {
    if (!isSignInState(req.query.state)) return next();
    try {
      // Text that cannot be stored (a NUL, a lone surrogate) is a bad request like anywhere else.
      if (findInputProblem({ ...req.query })) return res.redirect(302, '/login?microsoft_error=state');
      res.redirect(302, await finishMicrosoftSignIn(deps, req, res));
    } catch (error) {
      next(error);
    }
  });
  routes.get('/api/auth/microsoft/callback', restRoute(deps, async (caller, req, res) => {
    const { location } = await caller.microsoft.finishBrowserSignIn({ state: query(req.query.state), code: query(req.query.code), error: query(req.query.error) });
    res.redirect(302, location);
  }));
  routes.post('/api/auth/microsoft/device-code', restRoute(deps, (caller, req) => caller.microsoft.startDeviceCode(req.body ?? {})));
  routes.post('/api/auth/microsoft/poll-token', restRoute(deps, (caller, req) => caller.microsoft.pollDeviceCode(req.body ?? {})));
  // A failure answers { message, error } (the product spec's REST calls lists userEmail and error).
  routes.post('/api/auth/microsoft/manual-token', restRoute(deps, (caller, req) => caller.microsoft.manualToken(req.body ?? {}), 200, { errorAlsoAs: 'error' }));
  routes.post('/api/auth/microsoft/disconnect', restRoute(deps, (caller, req) => caller.microsoft.disconnect(req.body ?? {})));
  routes.get('/api/ai-coach/microsoft/connection-status', restRoute(deps, (caller) => caller.microsoft.connectionStatus()));
  routes.get('/api/ai-coach/microsoft/emails', restRoute(deps, async (caller) => {
    const { emails, message } = await caller.microsoft.emails({ pageSize: 10 });
    return { emails, message };
  }));
  routes.get('/api/microsoft-graph/real-emails', restRoute(deps, async (caller, req) => {
    const { success, emails, message, nextPageToken } = await caller.microsoft.emails({ pageToken: query(req.query.pageToken), pageSize: 25 });
    return { success, emails, message, nextPageToken };
  }));
  routes.get('/api/microsoft-email/folders', restRoute(deps, (caller) => caller.microsoft.folders()));
  routes.post('/api/microsoft-email/folders', restRoute(deps, (caller, req) => caller.microsoft.createFolder(req.body ?? {}), 201));
  routes.post('/api/microsoft-email/move-emails', restRoute(deps, (caller, req) => caller.microsoft.moveEmails(req.body ?? {})));
  return routes;
}
