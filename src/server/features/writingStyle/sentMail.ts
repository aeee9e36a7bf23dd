import type { EntityManager } from '@mikro-orm/core';
import { openMicrosoft365 } from '../microsoft/index.js';
import type { GraphDeps } from '../microsoft/index.js';

// The analysis reads sent mail through this narrow interface only, so it does not care where the
// mail comes from (the Microsoft mailbox in the app, a corpus in tests and the benchmark).

/** One sent email as the analysis needs it; the body is plain text. */
export type SentEmail = { id: string; subject: string; body: string; sentDateTime: string; to: string[] };

export interface SentMailSource {
  /** The most recent sent emails, newest first, at most `limit`. */
  sentEmails(limit: number): Promise<SentEmail[]>;
}

/** Opens the signed-in user's sent mail, or null when no mail account is connected. */
export type SentMailOpener = (deps: GraphDeps, em: EntityManager, userId: number) => Promise<SentMailSource | null>;

/** The user's Microsoft mailbox, or null when Microsoft mail is not connected. */
export const openSentMail: SentMailOpener = async (deps, em, userId) => (await openMicrosoft365(deps, em, userId)).mail;
