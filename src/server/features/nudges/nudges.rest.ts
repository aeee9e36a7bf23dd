import { Router } from 'express';
import type { AppDeps } from '../../deps.js';
import { restRoute } from '../../http/rest.js';

// Issue 35: GET/PUT /api/nudges/settings, POST /api/nudges/run { kind } (202 { runId }),
// GET /api/nudges/runs, on the nudges procedures.
export function nudgesRestRoutes(deps: AppDeps): Router {
  const routes = Router();
  routes.get('/api/nudges/settings', restRoute(deps, (caller) => caller.nudges.settings()));
  routes.put('/api/nudges/settings', restRoute(deps, (caller, req) => caller.nudges.saveSettings(req.body)));
  routes.post('/api/nudges/run', restRoute(deps, (caller, req) => caller.nudges.run(req.body ?? {}), 202));
  routes.get('/api/nudges/runs', restRoute(deps, (caller) => caller.nudges.runs()));
  return routes;
}
