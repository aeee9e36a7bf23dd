import express, { Router, type Request, type Response } from 'express';
import type { AppDeps } from '../../deps.js';
import { restRoute } from '../../http/rest.js';
import { isSignedByTwilio } from '../../providers/telephony/twilioCalls.js';
import { goalCheckInCall } from '../goals/index.js';
import { nudgeCallStatus } from '../nudges/index.js';
import { answerCall, type WebhookParams } from './phoneCall.js';
import { telephonySettingsOf, webhookPaths } from './telephonyProvider.js';

// POST /api/twilio/voice/call (the product spec's REST calls) and Twilio's webhooks. A webhook is answered only
// when its X-Twilio-Signature matches PUBLIC_URL + the path Twilio called (not the Host header,
// which a proxy rewrites) and the posted parameters.

const formBody = express.urlencoded({ extended: false, limit: '64kb', parameterLimit: 200 });

export function twilioRestRoutes(deps: AppDeps): Router {
  const routes = Router();
  routes.post('/api/twilio/voice/call', express.json({ limit: '10kb' }), restRoute(deps, (caller, req) => caller.twilio.placeCall(req.body ?? {})));
  routes.post(webhookPaths.incoming, formBody, signedWebhook(deps, answerCall));
  routes.post(webhookPaths.status, formBody, signedWebhook(deps, async () => null));
  routes.post(webhookPaths.goalCheckIn, formBody, signedWebhook(deps, goalCheckInCall));
  routes.post(webhookPaths.nudgeCallStatus, formBody, signedWebhook(deps, nudgeCallStatus));
  return routes;
}

type WebhookHandler = (ctx: Parameters<typeof answerCall>[0], query: WebhookParams, params: WebhookParams) => Promise<string | null>;

function signedWebhook(deps: AppDeps, handle: WebhookHandler) {
  return async (req: Request, res: Response) => {
    const settings = telephonySettingsOf(deps);
    // Without Twilio settings no signature can be checked: nothing is trusted.
    if (!settings) return void res.status(403).type('text/plain').send('Phone calls are not configured on this server');
    const params = stringParams(req.body);
    const signature = req.header('x-twilio-signature');
    if (!params || !isSignedByTwilio(settings.authToken, signature, settings.publicUrl + req.originalUrl, params)) {
      return void res.status(403).type('text/plain').send('Invalid Twilio signature');
    }
    const query = stringParams(req.query) ?? {};
    try {
      const twiml = await handle({ deps, em: deps.orm.em.fork(), publicUrl: settings.publicUrl }, query, params);
      if (twiml === null) return void res.status(204).end();
      res.type('text/xml').send(twiml);
    } catch (error) {
      deps.log.error({ err: error, path: req.path }, 'phone webhook failed');
      res.status(500).type('text/plain').send('The coach could not answer');
    }
  };
}

function stringParams(value: unknown): WebhookParams | null {
  if (!value || typeof value !== 'object') return {};
  const out: WebhookParams = {};
  for (const [key, v] of Object.entries(value)) {
    if (typeof v !== 'string') return null;
    out[key] = v;
  }
  return out;
}
