import { Router, type Request, type Response } from 'express';
import { nudgesTexts } from '../../../shared/texts/nudges.js';
import type { AppDeps } from '../../deps.js';
import { restRoute } from '../../http/rest.js';
import { turnNudgeOff } from './unsubscribe.js';
import { readUnsubscribeToken } from './unsubscribeToken.js';
import type { NudgeQueue } from './nudgeQueuePort.js';

// GET/PUT /api/nudges/settings, POST /api/nudges/run { kind } (202 { runId }),
// GET /api/nudges/runs, GET /api/push/key, POST/DELETE /api/push/subscriptions, on the nudges
// and push procedures; and GET /api/nudges/unsubscribe?token=…, the
// one-click link of a nudge email, which needs no sign-in (the signed token names the user and
// the nudge) and answers a small page.
export function nudgesRestRoutes(deps: AppDeps): Router {
  const routes = Router();
  routes.get('/api/nudges/settings', restRoute(deps, (caller) => caller.nudges.settings()));
  routes.put('/api/nudges/settings', restRoute(deps, (caller, req) => caller.nudges.saveSettings(req.body)));
  routes.post('/api/nudges/run', restRoute(deps, (caller, req) => caller.nudges.run(req.body ?? {}), 202));
  routes.get('/api/nudges/runs', restRoute(deps, (caller) => caller.nudges.runs()));
  routes.get('/api/push/key', restRoute(deps, (caller) => caller.push.key()));
  routes.post('/api/push/subscriptions', restRoute(deps, (caller, req) => caller.push.subscribe(req.body ?? {}), 201));
  routes.delete('/api/push/subscriptions', restRoute(deps, (caller, req) => caller.push.unsubscribe(req.body ?? {})));
  // A GET (a person's click, or a mail scanner following links) only shows the page with its
  // button; the POST (that button, or a mail client's RFC 8058 one-click request) turns it off.
  routes.get('/api/nudges/unsubscribe', (req, res, next) => void confirmUnsubscribe(deps, req, res).catch(next));
  routes.post('/api/nudges/unsubscribe', (req, res, next) => void unsubscribe(deps, req, res).catch(next));
  return routes;
}

const escapeHtml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

function page(res: Response, status: number, title: string, body: string, form = '', back = nudgesTexts.settingsLink) {
  res
    .status(status)
    .type('html')
    .send(`<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(title)}</title></head><body><main><h1>${escapeHtml(title)}</h1><p>${escapeHtml(body)}</p>${form}<p><a href="${back.href}">${escapeHtml(back.label)}</a></p></main></body></html>`);
}

const tokenOf = (req: Request) => (typeof req.query.token === 'string' ? req.query.token : '');

async function confirmUnsubscribe(deps: Pick<AppDeps, 'sessionPassword'>, req: Request, res: Response) {
  const token = tokenOf(req);
  const found = token.length <= 200 ? readUnsubscribeToken(deps.sessionPassword, token) : null;
  if (!found) {
    page(res, 400, nudgesTexts.unsubscribeInvalidTitle, nudgesTexts.unsubscribeInvalidBody);
    return;
  }
  const says = nudgesTexts.unsubscribeOf(found.kind);
  const form = `<form method="post" action="/api/nudges/unsubscribe?token=${escapeHtml(encodeURIComponent(token))}"><button type="submit">${escapeHtml(says.button)}</button></form>`;
  page(res, 200, nudgesTexts.unsubscribeConfirmTitle, says.confirmBody, form, says.back);
}

async function unsubscribe(deps: Pick<AppDeps, 'sessionPassword' | 'orm'> & { nudges: NudgeQueue }, req: Request, res: Response) {
  const token = tokenOf(req);
  const found = token.length <= 200 ? readUnsubscribeToken(deps.sessionPassword, token) : null;
  if (!found || !(await turnNudgeOff(deps.orm.em.fork(), deps.nudges.enqueue, found.userId, found.kind, deps.nudges.clock()))) {
    page(res, 400, nudgesTexts.unsubscribeInvalidTitle, nudgesTexts.unsubscribeInvalidBody);
    return;
  }
  const says = nudgesTexts.unsubscribeOf(found.kind);
  page(res, 200, nudgesTexts.unsubscribedTitle, says.doneBody, '', says.back);
}
