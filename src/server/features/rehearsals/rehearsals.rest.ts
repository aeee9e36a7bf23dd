import { Router, type Request } from 'express';
import type { AppDeps } from '../../deps.js';
import { restRoute } from '../../http/rest.js';

// The REST paths of rehearsals, answered by the rehearsals router's procedures.
const idOf = (req: Request) => req.params.id;

export function rehearsalRestRoutes(deps: AppDeps): Router {
  const routes = Router();
  routes.get('/api/rehearsals', restRoute(deps, (caller) => caller.rehearsals.list()));
  routes.post('/api/rehearsals', restRoute(deps, (caller, req) => caller.rehearsals.create(req.body ?? {}), 201));
  routes.get('/api/rehearsals/:id', restRoute(deps, (caller, req) => caller.rehearsals.get({ id: idOf(req) as unknown as number })));
  routes.post('/api/rehearsals/:id/feedback', restRoute(deps, (caller, req) => caller.rehearsals.feedback({ id: idOf(req) as unknown as number })));
  routes.post('/api/rehearsals/:id/retry', restRoute(deps, (caller, req) => caller.rehearsals.retry({ ...req.body, id: idOf(req) as unknown as number }), 201));
  routes.post('/api/rehearsals/:id/call', restRoute(deps, (caller, req) => caller.rehearsals.callMe({ id: idOf(req) as unknown as number }), 202));
  return routes;
}
