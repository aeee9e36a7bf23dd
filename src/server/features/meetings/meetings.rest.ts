import express, { Router } from 'express';
import type { AppDeps } from '../../deps.js';
import { restRoute } from '../../http/rest.js';
import { notificationHandler, notificationPath } from './subscriptions.js';

// GET /api/meetings?days=N (&timeZone=, which dates a demo visitor's sample week), POST /api/meetings/{id}/prep (201 new, 200 existing),
// POST /api/meetings/{id}/agenda and /agenda/email {text}, POST /api/meetings/{id}/reflection
// {text}; and Graph's change notifications (validation handshake and clientState checked there).
export function meetingsRestRoutes(deps: AppDeps): Router {
  const routes = Router();
  const id = (value: unknown) => value as string;
  routes.get('/api/meetings', restRoute(deps, (caller, req) => caller.meetings.list({ days: req.query.days as never, timeZone: req.query.timeZone as never })));
  routes.post('/api/meetings/:id/prep', restRoute(deps, async (caller, req, res) => {
    const { chatId, created } = await caller.meetings.prep({ id: id(req.params.id), timeZone: req.body?.timeZone });
    res.status(created ? 201 : 200).json({ chatId });
  }));
  routes.post('/api/meetings/:id/agenda', restRoute(deps, (caller, req) => caller.meetings.saveAgenda({ ...req.body, id: id(req.params.id) })));
  routes.post('/api/meetings/:id/agenda/email', restRoute(deps, (caller, req) => caller.meetings.emailAgenda({ ...req.body, id: id(req.params.id) })));
  routes.post('/api/meetings/:id/reflection', restRoute(deps, (caller, req) => caller.meetings.reflect({ ...req.body, id: id(req.params.id) }), 201));
  routes.post(notificationPath, express.json({ limit: '1mb' }), notificationHandler(deps));
  return routes;
}
