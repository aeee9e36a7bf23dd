import express, { Router } from 'express';
import type { AppDeps } from '../../deps.js';
import { restRoute } from '../../http/rest.js';

// The organisation's administration over REST (the admin procedures): 403 for a member and for any
// API key, 401 without a session.
// POST /api/admin/scim-tokens -> 201 { token, ... } (the token in this answer only); GET -> the
// list, never a token; DELETE /api/admin/scim-tokens/{id} -> 204 (revoked).
export function adminRestRoutes(deps: AppDeps): Router {
  const routes = Router();
  routes.post('/api/admin/scim-tokens', restRoute(deps, (caller) => caller.admin.createScimToken(), 201));
  routes.get('/api/admin/scim-tokens', restRoute(deps, (caller) => caller.admin.scimTokens()));
  routes.delete('/api/admin/scim-tokens/:id', restRoute(deps, async (caller, req) => {
    await caller.admin.revokeScimToken({ id: req.params.id as unknown as number });
  }));
  routes.get('/api/admin/members', restRoute(deps, (caller) => caller.admin.members()));
  routes.put('/api/admin/members/:id/role', restRoute(deps, (caller, req) => caller.admin.setMemberRole({ ...(req.body ?? {}), userId: req.params.id })));
  routes.get('/api/admin/organisation', restRoute(deps, (caller) => caller.admin.organisation()));
  routes.patch('/api/admin/organisation', restRoute(deps, (caller, req) => caller.admin.updateOrganisation(req.body ?? {})));
  // GET /api/admin/analytics[?by=department|manager]: 422 when the breakdown could single a small group out.
  routes.get('/api/admin/analytics', restRoute(deps, (caller, req) => caller.admin.analytics({ by: req.query.by as never })));
  // Programs: GET the list (with each one's progress under the floor), POST one (201), end one.
  routes.get('/api/admin/programs', restRoute(deps, (caller) => caller.admin.programs()));
  routes.post('/api/admin/programs', restRoute(deps, (caller, req) => caller.admin.createProgram(req.body ?? {}), 201));
  routes.post('/api/admin/programs/:id/end', restRoute(deps, (caller, req) => caller.admin.endProgram({ id: req.params.id as unknown as number })));
  routes.get('/api/admin/audit', restRoute(deps, (caller, req) => caller.admin.audit({ cursor: req.query.cursor, limit: req.query.limit })));
  return routes;
}

// POST /api/admin/invites { csv } -> 200 { invited, skipped: [{ line, email, reason }] }. Mounted
// before the app's 100kb JSON parser (app.ts): a CSV of 1,000 people may be larger.
export function adminInviteRestRoutes(deps: AppDeps): Router {
  const routes = Router();
  routes.post('/api/admin/invites', express.json({ limit: '700kb' }), restRoute(deps, (caller, req) => caller.admin.inviteMembers(req.body ?? {})));
  return routes;
}
