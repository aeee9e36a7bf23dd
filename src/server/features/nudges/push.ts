import type { EntityManager } from '@mikro-orm/core';
import { TRPCError } from '@trpc/server';
import type { z } from 'zod';
import type { pushSubscriptionSchema, pushUnsubscribeSchema } from '../../../shared/schemas/nudges.js';
import { nudgesTexts } from '../../../shared/texts/nudges.js';
import { PushSubscription } from '../../db/entities/Nudge.js';
import type { AppDeps } from '../../deps.js';
import type { AuthedContext } from '../../trpc/context.js';
import { lockOwner } from '../../db/ownerLock.js';
import { allowingEntry, deliveryAgent, endpointHost } from './pushHosts.js';

// Web push: GET /api/push/key, POST/DELETE /api/push/subscriptions, and the delivery of
// a nudge to every browser of the user through the push provider (providers/push/webPush.ts:
// payload encrypted aes128gcm, signed with VAPID). A subscription the push service says is gone (404, 410) is removed. Only
// hosts of WEB_PUSH_ALLOWED_HOSTS are taken and reached (pushHosts.ts).

export function pushKey(ctx: AuthedContext) {
  return { publicKey: ctx.deps.providers.push.publicKey() };
}

/** Push subscriptions an account may hold (a browser each: phones, laptops, profiles). */
export const maxPushSubscriptions = 10;

export async function subscribePush(ctx: AuthedContext, input: z.output<typeof pushSubscriptionSchema>) {
  const host = endpointHost(input.endpoint);
  if (!host || !allowingEntry(host, ctx.deps.config.webPushAllowedHosts)) throw new TRPCError({ code: 'BAD_REQUEST', message: nudgesTexts.pushHostNotAllowed });
  // The count and the insert under the owner's row lock: parallel posts cannot pass the cap.
  await ctx.em.transactional(async (tx) => {
    await lockOwner(tx, ctx.user.id);
    const existing = await tx.findOne(PushSubscription, { endpoint: input.endpoint });
    if (existing) {
      // An endpoint belongs to the account that subscribed it: another account's post changes nothing of it.
      if (existing.owner.id !== ctx.user.id) throw new TRPCError({ code: 'CONFLICT', message: nudgesTexts.pushEndpointTaken });
      existing.p256dh = input.keys.p256dh;
      existing.auth = input.keys.auth;
      return;
    }
    if ((await tx.count(PushSubscription, { owner: ctx.user.id })) >= maxPushSubscriptions) {
      throw new TRPCError({ code: 'CONFLICT', message: nudgesTexts.tooManyPushSubscriptions(maxPushSubscriptions) });
    }
    tx.create(PushSubscription, { owner: ctx.user.id, endpoint: input.endpoint, p256dh: input.keys.p256dh, auth: input.keys.auth });
  });
  return { endpoint: input.endpoint };
}

export async function unsubscribePush(ctx: AuthedContext, input: z.output<typeof pushUnsubscribeSchema>) {
  const removed = await ctx.em.nativeDelete(PushSubscription, { owner: ctx.user.id, endpoint: input.endpoint });
  if (!removed) throw new TRPCError({ code: 'NOT_FOUND', message: nudgesTexts.pushNotFound });
}

export type PushPayload = { title: string; body: string; url: string };

/** How long one push may take: a push service answers in well under a second. */
export const pushTimeoutMs = 5_000;

/**
 * A push that did not go: its reason is one of a few fixed texts, never the error's own (which
 * would tell whoever posted the endpoint what answered at that address, and how).
 */
export class PushDeliveryError extends Error {}

/**
 * Pushes to every subscription of the user at once, each within pushTimeoutMs; how many took it.
 * Gone subscriptions (404, 410) are removed; when none took it and one failed otherwise, throws a
 * PushDeliveryError (the run is retried), after all were tried.
 */
export async function pushNudge(deps: Pick<AppDeps, 'config' | 'log' | 'hostLookup' | 'providers'>, em: EntityManager, userId: number, payload: PushPayload): Promise<number> {
  const subscriptions = await em.find(PushSubscription, { owner: userId }, { orderBy: { id: 'asc' }, limit: maxPushSubscriptions });
  const outcomes = await Promise.all(
    subscriptions.map(async (sub): Promise<'delivered' | 'gone' | 'refused' | 'unreachable'> => {
      const agent = deliveryAgent(sub.endpoint, deps.config.webPushAllowedHosts, deps.hostLookup);
      if (!agent) {
        deps.log.warn({ subscriptionId: sub.id }, 'a push subscription names a host the server may not reach: not sent');
        return 'unreachable';
      }
      try {
        await deps.providers.push.send({ endpoint: sub.endpoint, keys: { p256dh: sub.p256dh, auth: sub.auth } }, JSON.stringify(payload), { timeoutMs: pushTimeoutMs, agent });
        return 'delivered';
      } catch (error) {
        const status = (error as { statusCode?: number }).statusCode;
        if (status === 404 || status === 410) {
          await em.nativeDelete(PushSubscription, { id: sub.id });
          deps.log.info({ status }, 'a push subscription is gone: removed');
          return 'gone';
        }
        deps.log.warn({ subscriptionId: sub.id, status, code: (error as { code?: string }).code }, 'a push was not delivered');
        return typeof status === 'number' ? 'refused' : 'unreachable';
      }
    }),
  );
  const delivered = outcomes.filter((o) => o === 'delivered').length;
  if (!delivered && outcomes.includes('refused')) throw new PushDeliveryError(nudgesTexts.reasonPushRefused);
  if (!delivered && outcomes.includes('unreachable')) throw new PushDeliveryError(nudgesTexts.reasonPushUnreachable);
  return delivered;
}
