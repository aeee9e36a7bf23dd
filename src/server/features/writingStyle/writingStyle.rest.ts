import { Router } from 'express';
import type { AppDeps } from '../../deps.js';
import { restRoute } from '../../http/rest.js';

// The product spec's REST calls writing-analysis paths, answered by the writingStyle router's procedures.
export function writingStyleRestRoutes(deps: AppDeps): Router {
  const routes = Router();
  routes.get('/api/writing-analysis/writing-style', restRoute(deps, (caller) => caller.writingStyle.get()));
  routes.get('/api/writing-analysis/sent-emails', restRoute(deps, (caller) => caller.writingStyle.sentEmails()));
  routes.post('/api/writing-analysis/analyze-style', restRoute(deps, (caller) => caller.writingStyle.analyze()));
  return routes;
}
