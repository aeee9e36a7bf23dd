import { Router } from 'express';
import type { AppDeps } from '../../deps.js';
import { restRoute } from '../../http/rest.js';

// POST /api/phone/verification {phoneNumber} texts a code; POST
// /api/phone/verification/confirm {code} verifies the number; PUT /api/phone/pin {pin} sets the
// phone PIN, DELETE /api/phone/pin removes it.
export function phoneRestRoutes(deps: AppDeps): Router {
  const routes = Router();
  routes.post('/api/phone/verification', restRoute(deps, (caller, req) => caller.phone.startVerification(req.body ?? {})));
  routes.post('/api/phone/verification/confirm', restRoute(deps, (caller, req) => caller.phone.confirmVerification(req.body ?? {})));
  routes.put('/api/phone/pin', restRoute(deps, (caller, req) => caller.phone.setPin(req.body ?? {})));
  routes.delete('/api/phone/pin', restRoute(deps, (caller) => caller.phone.removePin()));
  return routes;
}
