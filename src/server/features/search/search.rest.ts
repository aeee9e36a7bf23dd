import { Router } from 'express';
import type { AppDeps } from '../../deps.js';
import { restRoute } from '../../http/rest.js';

// GET /api/search?q= (2 to 200 characters) answers {results}.
export function searchRestRoutes(deps: AppDeps): Router {
  const routes = Router();
  routes.get('/api/search', restRoute(deps, (caller, req) => caller.search.messages({ q: req.query.q as string })));
  return routes;
}
