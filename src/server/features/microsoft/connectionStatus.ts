import { microsoftServiceKeys, type MicrosoftServiceKey } from '../../../shared/schemas/microsoft.js';
import { MicrosoftConnection } from '../../db/entities/MicrosoftConnection.js';
import type { AuthedContext } from '../../trpc/context.js';

export type ServiceStatus = { connected: boolean; accountEmail: string | null; needsReconnect: boolean };
export type ConnectionStatus = {
  success: true;
  /** Whether browser and device-code sign-in are available (MICROSOFT_CLIENT_ID is set). */
  signInConfigured: boolean;
  /** Whether device-code sign-in is offered too (signInConfigured and MICROSOFT_DEVICE_CODE). */
  deviceCodeSignIn: boolean;
  connections: Record<MicrosoftServiceKey, ServiceStatus>;
};

// The product spec's REST calls: connections.email/calendar/teams.connected, for the signed-in user only.
export async function connectionStatus(ctx: AuthedContext): Promise<ConnectionStatus> {
  const rows = await ctx.em.find(MicrosoftConnection, { user: ctx.user.id });
  const entries = microsoftServiceKeys.map((service) => {
    const row = rows.find((r) => r.service === service);
    const status: ServiceStatus = {
      connected: Boolean(row && !row.needsReconnect),
      accountEmail: row?.accountEmail ?? null,
      needsReconnect: Boolean(row?.needsReconnect),
    };
    return [service, status] as const;
  });
  return {
    success: true,
    signInConfigured: Boolean(ctx.deps.microsoft.identity),
    deviceCodeSignIn: Boolean(ctx.deps.microsoft.identity) && ctx.deps.config.microsoft.deviceCode,
    connections: Object.fromEntries(entries) as Record<MicrosoftServiceKey, ServiceStatus>,
  };
}
