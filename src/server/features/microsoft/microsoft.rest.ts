import { Router } from 'express';
import type { AppDeps } from '../../deps.js';
import { restRoute } from '../../http/rest.js';

// The product spec's REST calls Microsoft paths, answered by the microsoft router's procedures.
export function microsoftRestRoutes(deps: AppDeps): Router {
  const routes = Router();
  const query = (value: unknown) => (typeof value === 'string' ? value : undefined);
  routes.get('/api/auth/microsoft/login', restRoute(deps, (caller, req) => caller.microsoft.startBrowserSignIn({ service: query(req.query.service) as never })));
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
