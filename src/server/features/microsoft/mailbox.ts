import type { EntityManager } from '@mikro-orm/core';
import { graphMail, type GraphMail } from '../../providers/microsoft/graphMail.js';
import type { MailSource, RecentEmail } from '../../providers/ai/contract.js';
import { accessTokenFor, findConnection, type GraphDeps } from './connections.js';

// A user's Microsoft mailbox: what the coach reads (MailSource), what the writing-style analysis
// reads (sentEmails), and what the mail screens use (pages, folders, moves).

export type SentEmail = { id: string; subject: string; body: string /* plain text */; sentDateTime: string; to: string[] };

export interface Mailbox extends MailSource {
  connected: true;
  accountEmail: string | null;
  recentEmails(limit: number): Promise<RecentEmail[]>;
  /** Sent items with plain-text bodies, newest first. */
  sentEmails(limit: number): Promise<SentEmail[]>;
  graph: GraphMail;
}

/** The user's mailbox, or null when Microsoft mail is not connected (or needs a reconnect). */
export async function openMailbox(deps: GraphDeps, em: EntityManager, userId: number): Promise<Mailbox | null> {
  const connection = await findConnection(em, userId, 'email');
  if (!connection || connection.needsReconnect) return null;
  const graph = graphMail({
    baseUrl: deps.config.microsoft.graphBaseUrl,
    accessToken: () => accessTokenFor(deps, em, connection),
    gate: (work) => deps.microsoft.gates.run(`user:${userId}`, work),
  });
  return {
    connected: true,
    accountEmail: connection.accountEmail ?? null,
    graph,
    async recentEmails(limit) {
      const messages = await graph.recentMessages('inbox', limit);
      return messages.map((m) => ({
        subject: m.subject,
        from: m.from.emailAddress.name ? `${m.from.emailAddress.name} <${m.from.emailAddress.address}>` : m.from.emailAddress.address,
        receivedDateTime: m.receivedDateTime,
        bodyPreview: m.bodyPreview,
      }));
    },
    sentEmails: (limit) => graph.sentMessages(limit),
  };
}
