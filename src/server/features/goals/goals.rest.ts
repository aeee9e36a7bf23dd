import { Router } from 'express';
import type { AppDeps } from '../../deps.js';
import { restRoute } from '../../http/rest.js';

// GET/POST /api/goals, GET/PUT/DELETE /api/goals/{id},
// POST /api/goals/{id}/check-ins {keyResultId, value, note?}, on the goals procedures.
export function goalsRestRoutes(deps: AppDeps): Router {
  const routes = Router();
  // The path id goes to the schema as it came (z.coerce reads it; a bad one is a 400).
  const goalId = (id: unknown) => id as number;
  routes.get('/api/goals', restRoute(deps, (caller) => caller.goals.list({ history: 'full' })));
  routes.post('/api/goals', restRoute(deps, (caller, req) => caller.goals.create(req.body ?? {}), 201));
  routes.get('/api/goals/:id', restRoute(deps, (caller, req) => caller.goals.get({ goalId: goalId(req.params.id) })));
  routes.put('/api/goals/:id', restRoute(deps, (caller, req) => caller.goals.update({ ...req.body, goalId: goalId(req.params.id) })));
  routes.delete('/api/goals/:id', restRoute(deps, async (caller, req) => {
    await caller.goals.delete({ goalId: goalId(req.params.id) });
  }));
  routes.post('/api/goals/:id/check-ins', restRoute(deps, (caller, req) => caller.goals.checkIn({ ...req.body, goalId: goalId(req.params.id) }), 201));
  return routes;
}
