import type { MicrosoftServiceKey } from '../../../shared/schemas/microsoft.js';
import type { AuthedContext } from '../../trpc/context.js';
import { deleteConnection } from './connections.js';
import { recordSecurityEvent, requestEvent } from '../security/securityEvents.js';

// Disconnecting deletes the service's tokens on the server (not only a local flag).
export async function disconnectService(ctx: AuthedContext, input: { service: MicrosoftServiceKey }) {
  if (await deleteConnection(ctx.em, ctx.user.id, input.service)) await recordSecurityEvent(ctx.em, requestEvent(ctx, 'microsoft_disconnected'));
  return { success: true as const, service: input.service };
}
