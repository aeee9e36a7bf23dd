import type { GraphMail } from '../../providers/microsoft/graphMail.js';
import type { MailSource, RecentEmail } from '../../providers/ai/contract.js';

// A user's Microsoft mailbox (microsoft365.ts opens it): what the coach reads (MailSource), what
// the writing-style analysis reads (sentEmails), and what the mail screens use (pages, folders, moves).

export type SentEmail = { id: string; subject: string; body: string /* plain text */; sentDateTime: string; to: string[] };

export interface Mailbox extends MailSource {
  connected: true;
  accountEmail: string | null;
  recentEmails(limit: number): Promise<RecentEmail[]>;
  /** Sent items with plain-text bodies, newest first. */
  sentEmails(limit: number): Promise<SentEmail[]>;
  graph: GraphMail;
}

/** The mailbox over one user's Graph mail session (openMicrosoft365 opens it). */
export function mailboxOf(graph: GraphMail, accountEmail: string | null): Mailbox {
  return {
    connected: true,
    accountEmail,
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
