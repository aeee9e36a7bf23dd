import type { MicrosoftServiceKey } from '../../../shared/schemas/microsoft.js';
import type { AuthedContext } from '../../trpc/context.js';
import { dropCalendarState } from '../meetings/index.js';
import { deleteConnection } from './connections.js';
import { recordSecurityEvent, requestEvent } from '../security/index.js';

// Disconnecting deletes the service's tokens on the server (not only a local flag).
export async function disconnectService(ctx: AuthedContext, input: { service: MicrosoftServiceKey }) {
  // The calendar's subscriptions are deleted with its token still at hand, and its cached events dropped.
  if (input.service === 'calendar') await dropCalendarState(ctx.deps, ctx.em, ctx.user.id);
  if (await deleteConnection(ctx.em, ctx.user.id, input.service)) await recordSecurityEvent(ctx.em, requestEvent(ctx, 'microsoft_disconnected'));
  return { success: true as const, service: input.service };
}
