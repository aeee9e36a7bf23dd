import { Router } from 'express';
import type { AppDeps } from '../../deps.js';
import { restRoute } from '../../http/rest.js';

// POST /api/api-keys -> 201 with the key (once); GET -> the list, never a key;
// DELETE /api/api-keys/{id} -> 204, 404 for another user's or an unknown id.
export function apiKeysRestRoutes(deps: AppDeps): Router {
  const routes = Router();
  routes.post('/api/api-keys', restRoute(deps, (caller, req) => caller.apiKeys.create(req.body ?? {}), 201));
  routes.get('/api/api-keys', restRoute(deps, (caller) => caller.apiKeys.list()));
  routes.delete('/api/api-keys/:id', restRoute(deps, async (caller, req) => {
    await caller.apiKeys.revoke({ id: req.params.id as unknown as number });
  }));
  return routes;
}
