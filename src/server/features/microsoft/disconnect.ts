import type { MicrosoftServiceKey } from '../../../shared/schemas/microsoft.js';
import type { AuthedContext } from '../../trpc/context.js';
import { deleteConnection } from './connections.js';

// Disconnecting deletes the service's tokens on the server (not only a local flag).
export async function disconnectService(ctx: AuthedContext, input: { service: MicrosoftServiceKey }) {
  await deleteConnection(ctx.em, ctx.user.id, input.service);
  return { success: true as const, service: input.service };
}
