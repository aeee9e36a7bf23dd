import { Router } from 'express';
import type { AppDeps } from '../../deps.js';
import { restRoute } from '../../http/rest.js';

// POST /api/meetings/{id}/debrief (201 { debrief }), GET /api/meetings/{id}/debrief (404 when
// none), POST /api/meetings/{id}/debrief/rehearse (201 { id, chatId }); GET /api/debriefs/recent
// (the Teams meetings of the last week that ended), GET /api/debriefs/trends, and GET/PUT
// /api/debriefs/settings { automatic }.
export function debriefsRestRoutes(deps: AppDeps): Router {
  const routes = Router();
  const id = (value: unknown) => value as string;
  routes.post('/api/meetings/:id/debrief', restRoute(deps, (caller, req) => caller.debriefs.create({ id: id(req.params.id), timeZone: req.body?.timeZone }), 201));
  routes.get('/api/meetings/:id/debrief', restRoute(deps, (caller, req) => caller.debriefs.get({ id: id(req.params.id) })));
  routes.post('/api/meetings/:id/debrief/rehearse', restRoute(deps, (caller, req) => caller.debriefs.rehearse({ id: id(req.params.id), timeZone: req.body?.timeZone }), 201));
  routes.get('/api/debriefs/recent', restRoute(deps, (caller, req) => caller.debriefs.recent({ timeZone: req.query.timeZone as never })));
  routes.get('/api/debriefs/trends', restRoute(deps, (caller) => caller.debriefs.trends()));
  routes.get('/api/debriefs/settings', restRoute(deps, (caller) => caller.debriefs.settings()));
  routes.put('/api/debriefs/settings', restRoute(deps, (caller, req) => caller.debriefs.saveSettings(req.body ?? {})));
  return routes;
}
