import type { NudgeKind } from '../../../shared/schemas/nudges.js';
import { nudgesTexts } from '../../../shared/texts/nudges.js';

// The nudge's email: its HTML and its plain-text alternative, from the nudge's text (the app's
// markdown subset), a link to its chat and the signed unsubscribe link.

const escapeHtml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

export function nudgeEmailHtml(content: string, chatLink: string, unsubscribeLink: string, kind: NudgeKind, base: string): string {
  // The brief's '[Prepare or rehearse it](/meetings)' becomes a link to the app.
  const body = content
    .split('\n')
    .map((line) =>
      escapeHtml(line)
        .replace(/\*\*(.+?)\*\*/g, '<strong>$1</strong>')
        .replace(/\[([^[\]]+)\]\((\/[^()\s]*)\)/g, (_all, label: string, href: string) => `<a href="${escapeHtml(base)}${href}">${label}</a>`),
    )
    .join('<br>\n');
  return [
    `<div>${body}</div>`,
    `<p><a href="${escapeHtml(chatLink)}">${nudgesTexts.emailOpenChat}</a></p>`,
    `<p style="color:#666;font-size:12px">${nudgesTexts.emailFooter} <a href="${escapeHtml(unsubscribeLink)}">${escapeHtml(nudgesTexts.unsubscribeOf(kind).email)}</a></p>`,
  ].join('\n');
}

/** The plain-text alternative of the same mail: the brief's links spelled out. */
export function nudgeEmailText(content: string, chatLink: string, unsubscribeLink: string, kind: NudgeKind, base: string): string {
  const body = content.replace(/\*\*(.+?)\*\*/g, '$1').replace(/\[([^[\]]+)\]\((\/[^()\s]*)\)/g, (_all, label: string, href: string) => `${label} (${base}${href})`);
  return [body, '', `${nudgesTexts.emailOpenChat}: ${chatLink}`, '', `${nudgesTexts.emailFooter} ${nudgesTexts.unsubscribeOf(kind).email}: ${unsubscribeLink}`, ''].join('\n');
}
