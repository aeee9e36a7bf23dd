import type { EntityManager } from '@mikro-orm/core';
import { TRPCError } from '@trpc/server';
import webpush from 'web-push';
import type { z } from 'zod';
import type { pushSubscriptionSchema, pushUnsubscribeSchema } from '../../../shared/schemas/nudges.js';
import { nudgesTexts } from '../../../shared/texts/nudges.js';
import { PushSubscription } from '../../db/entities/Nudge.js';
import type { AppDeps } from '../../deps.js';
import type { AuthedContext } from '../../trpc/context.js';
import { vapidKeys, type VapidKeys } from './vapid.js';

// Web push (issue 35): GET /api/push/key, POST/DELETE /api/push/subscriptions, and the delivery of
// a nudge to every browser of the user with the web-push library (payload encrypted aes128gcm,
// signed with VAPID). A subscription the push service says is gone (404, 410) is removed.

const keysByDir = new Map<string, VapidKeys>();

export function appVapidKeys(deps: Pick<AppDeps, 'config'>): VapidKeys {
  const key = `${deps.config.dataDir}:${deps.config.vapid.publicKey ?? ''}`;
  let keys = keysByDir.get(key);
  if (!keys) {
    keys = vapidKeys(deps.config);
    keysByDir.set(key, keys);
  }
  return keys;
}

export function pushKey(ctx: AuthedContext) {
  return { publicKey: appVapidKeys(ctx.deps).publicKey };
}

export async function subscribePush(ctx: AuthedContext, input: z.output<typeof pushSubscriptionSchema>) {
  const existing = await ctx.em.findOne(PushSubscription, { endpoint: input.endpoint });
  if (existing) {
    existing.owner = ctx.user;
    existing.p256dh = input.keys.p256dh;
    existing.auth = input.keys.auth;
  } else {
    ctx.em.create(PushSubscription, { owner: ctx.user, endpoint: input.endpoint, p256dh: input.keys.p256dh, auth: input.keys.auth });
  }
  await ctx.em.flush();
  return { endpoint: input.endpoint };
}

export async function unsubscribePush(ctx: AuthedContext, input: z.output<typeof pushUnsubscribeSchema>) {
  const removed = await ctx.em.nativeDelete(PushSubscription, { owner: ctx.user.id, endpoint: input.endpoint });
  if (!removed) throw new TRPCError({ code: 'NOT_FOUND', message: nudgesTexts.pushNotFound });
}

export type PushPayload = { title: string; body: string; url: string };

/**
 * Pushes to every subscription of the user; how many took it. Gone subscriptions (404, 410) are
 * removed; any other failure throws (the run is retried), after the others were tried.
 */
export async function pushNudge(deps: AppDeps, em: EntityManager, userId: number, payload: PushPayload): Promise<number> {
  const subscriptions = await em.find(PushSubscription, { owner: userId }, { orderBy: { id: 'asc' }, limit: 20 });
  const keys = appVapidKeys(deps);
  let delivered = 0;
  let failure: unknown = null;
  for (const sub of subscriptions) {
    try {
      await webpush.sendNotification({ endpoint: sub.endpoint, keys: { p256dh: sub.p256dh, auth: sub.auth } }, JSON.stringify(payload), {
        vapidDetails: { subject: keys.subject, publicKey: keys.publicKey, privateKey: keys.privateKey },
        contentEncoding: 'aes128gcm',
        TTL: 24 * 3600,
        timeout: 15_000,
      });
      delivered += 1;
    } catch (error) {
      const status = (error as { statusCode?: number }).statusCode;
      if (status === 404 || status === 410) {
        await em.nativeDelete(PushSubscription, { id: sub.id });
        deps.log.info({ status }, 'a push subscription is gone: removed');
      } else {
        failure = error;
      }
    }
  }
  if (failure && !delivered) throw failure instanceof Error ? failure : new Error('push failed');
  return delivered;
}
