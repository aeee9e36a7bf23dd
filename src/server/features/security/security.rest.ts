import { Router } from 'express';
import type { AppDeps } from '../../deps.js';
import { restRoute } from '../../http/rest.js';

// GET /api/security-events?cursor=&limit= -> { events, nextCursor }.
export function securityRestRoutes(deps: AppDeps): Router {
  const routes = Router();
  routes.get('/api/security-events', restRoute(deps, (caller, req) => caller.security.events({ cursor: req.query.cursor, limit: req.query.limit })));
  return routes;
}
