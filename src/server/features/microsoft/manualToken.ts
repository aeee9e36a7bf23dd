import { TRPCError } from '@trpc/server';
import { manualServiceKey, serviceNameOfKey, type manualTokenSchema } from '../../../shared/schemas/microsoft.js';
import { microsoftTexts } from '../../../shared/texts/microsoft.js';
import { graphMail, GraphRequestError } from '../../providers/microsoft/graphMail.js';
import type { AuthedContext } from '../../trpc/context.js';
import type { z } from 'zod';
import { saveConnection } from './connections.js';
import { asPublicError } from './graphErrors.js';
import { recordSecurityEvent, requestEvent } from '../security/index.js';

// The product spec's entities: a pasted Graph access token. It is checked against Graph /me before anything
// is stored; a token Graph refuses connects nothing.
export async function connectWithManualToken(ctx: AuthedContext, input: z.infer<typeof manualTokenSchema>) {
  const service = manualServiceKey(input.service);
  const graph = graphMail({
    baseUrl: ctx.deps.config.microsoft.graphBaseUrl,
    accessToken: async () => input.token,
    gate: (work) => ctx.deps.microsoft.gates.run(`user:${ctx.user.id}`, work),
  });
  let me: { email: string };
  try {
    me = await graph.me();
  } catch (error) {
    if (error instanceof GraphRequestError && (error.status === 401 || error.status === 403 || error.status === 400)) {
      throw new TRPCError({ code: 'BAD_REQUEST', message: microsoftTexts.tokenRefused });
    }
    throw asPublicError(error, microsoftTexts.graphUnreachable);
  }
  await saveConnection(ctx.deps, ctx.em, ctx.user.id, service, { accessToken: input.token, refreshToken: null, expiresAt: expiryOf(input.token), accountEmail: me.email || null });
  await recordSecurityEvent(ctx.em, requestEvent(ctx, 'microsoft_connected'));
  return { success: true as const, userEmail: me.email, service: serviceNameOfKey(service) };
}

/** A JWT access token says when it expires; an opaque one does not. */
function expiryOf(token: string): Date | null {
  try {
    const payload = JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString('utf8')) as { exp?: unknown };
    return typeof payload.exp === 'number' ? new Date(payload.exp * 1000) : null;
  } catch {
    return null;
  }
}
