import type { EntityManager } from '@mikro-orm/core';
import type { NudgeChannel, NudgeKind, NudgeSettings } from '../../../shared/schemas/nudges.js';
import { nudgesTexts } from '../../../shared/texts/nudges.js';
import type { AppDeps } from '../../deps.js';
import { openMicrosoft365, ReconnectNeededError } from '../microsoft/index.js';
import { callNudge } from './nudgeCall.js';
import { nudgeEmailHtml, nudgeEmailText } from './nudgeEmail.js';
import { pushNudge } from './push.js';
import { unsubscribeToken } from './unsubscribeToken.js';

// A nudge leaves the app by the channels the user turned on: email, push, then a call. The chat
// in the app is written before (nudgeRun.ts); these only carry it further.

/** What the channels did: those that delivered (the app first), why one did not, and whether the call failed the run. */
export type Delivery = { channels: NudgeChannel[]; reason: string | null; callFailed: boolean };

const joined = (reason: string | null, more: string) => (reason ? `${reason} ${more}` : more);

/** Sends the nudge of chat `chatId` by email, push and a call, as the settings say. A Graph or push failure throws (the run is retried). */
export async function deliverOutside(deps: Pick<AppDeps, 'config' | 'log' | 'sessionPassword' | 'rateLimits' | 'sessions' | 'microsoft' | 'providers' | 'nudges' | 'hostLookup'>, em: EntityManager, userId: number, kind: NudgeKind, chatId: number, settings: NudgeSettings, title: string, content: string): Promise<Delivery> {
  const channels: NudgeChannel[] = ['app'];
  let reason: string | null = null;
  if (settings.channels.email) {
    const emailed = await emailNudge(deps, em, userId, kind, chatId, title, content);
    if (emailed) channels.push('email');
    else reason = nudgesTexts.reasonMailboxReconnect;
  }
  if (settings.channels.push) {
    const pushed = await pushNudge(deps, em, userId, { title, body: content.split('\n')[0] ?? title, url: `/app?chat=${chatId}` });
    if (pushed) channels.push('push');
    else reason = joined(reason, nudgesTexts.reasonNoPushSubscription);
  }
  if (settings.channels.call) {
    // Last: a call not placed fails the run (nudgeCall.ts), with what was delivered before it.
    const callFailed = await callNudge(deps, em, userId, chatId);
    if (callFailed) return { channels, reason: joined(reason, callFailed), callFailed: true };
    channels.push('call');
  }
  return { channels, reason, callFailed: false };
}

/** The base of the links in an email: PUBLIC_URL, else the address this server listens on. */
function appUrl(deps: Pick<AppDeps, 'config' | 'nudges'>): string {
  return deps.config.publicUrl ?? deps.nudges.baseUrl();
}

/**
 * The nudge by email, from the user's own connected mailbox to its own address, with a link to the
 * chat and a signed one-click unsubscribe link. False when the mailbox needs reconnecting (the
 * nudge stays in the app); a Graph failure throws (the run is retried).
 */
async function emailNudge(deps: Pick<AppDeps, 'config' | 'log' | 'sessionPassword' | 'sessions' | 'microsoft' | 'nudges'>, em: EntityManager, userId: number, kind: NudgeKind, chatId: number, title: string, content: string): Promise<boolean> {
  const mailbox = await openMicrosoft365(deps, em, userId).then((m365) => m365.mail, () => null);
  if (!mailbox?.accountEmail) return false;
  const base = appUrl(deps);
  const chatLink = `${base}/app?chat=${chatId}`;
  const unsubscribe = `${base}/api/nudges/unsubscribe?token=${encodeURIComponent(unsubscribeToken(deps.sessionPassword, userId, kind))}`;
  try {
    // As MIME, for RFC 8058's one-click headers: a mail client's 'Unsubscribe' POSTs to the link.
    await mailbox.graph.sendMimeMail({
      from: mailbox.accountEmail,
      subject: title,
      html: nudgeEmailHtml(content, chatLink, unsubscribe, kind, base),
      text: nudgeEmailText(content, chatLink, unsubscribe, kind, base),
      to: [{ name: '', email: mailbox.accountEmail }],
      headers: { 'List-Unsubscribe': `<${unsubscribe}>`, 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' },
    });
  } catch (error) {
    if (error instanceof ReconnectNeededError) return false;
    throw error;
  }
  return true;
}
