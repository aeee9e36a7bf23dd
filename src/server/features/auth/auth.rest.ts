import { Router } from 'express';
import type { AppDeps } from '../../deps.js';
import { restRoute } from '../../http/rest.js';

// The product spec's REST calls auth paths, answered by the auth router's procedures.
export function authRestRoutes(deps: AppDeps): Router {
  const routes = Router();
  routes.post('/api/auth/register', restRoute(deps, (caller, req) => caller.auth.register(req.body ?? {}), 201));
  routes.post('/api/auth/login', restRoute(deps, (caller, req) => caller.auth.login(req.body ?? {})));
  routes.post('/api/auth/logout', restRoute(deps, (caller) => caller.auth.logout()));
  routes.get('/api/auth/session', restRoute(deps, async (caller) => {
    const { user } = await caller.auth.session();
    return { user };
  }));
  routes.get('/api/auth/check-access', restRoute(deps, (caller, req) => {
    const header = req.headers['x-access-key'];
    return caller.auth.checkAccess({ accessKey: Array.isArray(header) ? header[0] : header });
  }));
  return routes;
}
