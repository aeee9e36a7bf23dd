import type { EntityManager } from '@mikro-orm/core';
import { MicrosoftConnection } from '../../db/entities/MicrosoftConnection.js';
import { timeZoneOf } from '../../db/userTimeZone.js';
import { graphCalendar, type GraphCalendar } from '../../providers/microsoft/graphCalendar.js';
import { graphMail } from '../../providers/microsoft/graphMail.js';
import type { GraphClientOptions } from '../../providers/microsoft/graphClient.js';
import { accessTokenFor, type GraphDeps } from './connections.js';
import { mailboxOf, type Mailbox } from './mailbox.js';

// The one way into a user's Microsoft 365: both connections read at once, each opened as its port.
// Mail ('Microsoft Email') reads, searches and sends the mail; the calendar ('Microsoft Calendar')
// reads the events and writes invites. Neither connection opens the other's port (mail alone does
// not open the calendar). Every request goes through the user's own token and mailbox gate, so an
// id of another user's message or event is simply not found in theirs.

/** A user's Microsoft calendar, read in their time zone. */
export type Calendar = { graph: GraphCalendar; accountEmail: string | null; timeZone: string };

/** The user's Microsoft 365 ports: each null while its service is not connected (or needs a reconnect). */
export type Microsoft365 = { mail: Mailbox | null; calendar: Calendar | null };

export async function openMicrosoft365(deps: GraphDeps, em: EntityManager, userId: number): Promise<Microsoft365> {
  const connections = await em.find(MicrosoftConnection, { user: userId, service: { $in: ['email', 'calendar'] } });
  const usable = (service: 'email' | 'calendar') => connections.find((c) => c.service === service && !c.needsReconnect) ?? null;
  const graphOptions = (connection: MicrosoftConnection): GraphClientOptions => ({
    baseUrl: deps.config.microsoft.graphBaseUrl,
    accessToken: () => accessTokenFor(deps, em, connection),
    gate: (work) => deps.microsoft.gates.run(`user:${userId}`, work),
  });
  const mailConnection = usable('email');
  const calendarConnection = usable('calendar');
  return {
    mail: mailConnection ? mailboxOf(graphMail(graphOptions(mailConnection)), mailConnection.accountEmail ?? null) : null,
    calendar: calendarConnection
      ? { graph: graphCalendar(graphOptions(calendarConnection)), accountEmail: calendarConnection.accountEmail ?? null, timeZone: await timeZoneOf(em, userId) }
      : null,
  };
}
