import { Router } from 'express';
import type { AppDeps } from '../../deps.js';
import { restRoute } from '../../http/rest.js';

// GET/POST/DELETE /api/memories, PATCH/DELETE /api/memories/{id},
// GET/PUT /api/memories/settings, on the memories procedures.
export function memoriesRestRoutes(deps: AppDeps): Router {
  const routes = Router();
  // The path id goes to the schema as it came (z.coerce reads it; a bad one is a 404-worded 400).
  const memoryId = (id: unknown) => id as number;
  routes.get('/api/memories', restRoute(deps, (caller) => caller.memories.list()));
  routes.post('/api/memories', restRoute(deps, (caller, req) => caller.memories.create(req.body ?? {}), 201));
  routes.delete('/api/memories', restRoute(deps, async (caller) => {
    await caller.memories.deleteAll();
  }));
  // Before /:id, so 'settings' is never read as an id.
  routes.get('/api/memories/settings', restRoute(deps, (caller) => caller.memories.settings()));
  routes.put('/api/memories/settings', restRoute(deps, (caller, req) => caller.memories.setSettings(req.body ?? {})));
  routes.patch('/api/memories/:id', restRoute(deps, (caller, req) => caller.memories.update({ ...req.body, memoryId: memoryId(req.params.id) })));
  routes.delete('/api/memories/:id', restRoute(deps, async (caller, req) => {
    await caller.memories.delete({ memoryId: memoryId(req.params.id) });
  }));
  return routes;
}
