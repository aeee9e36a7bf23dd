import { chatLimits } from '../../../shared/constants';
import { chatTexts } from '../../../shared/texts';
import { trpcClient } from '../../lib/trpc';
import type { MessageDto } from './chatCache';
import { trimChars } from '../../../shared/trimText.js';

// The header's Copy (plain text) and Save (a Markdown file named after the chat). Both start
// with the greeting, as the page does, and hold the whole conversation, not just the loaded pages.

export type ExportMessage = Pick<MessageDto, 'role' | 'content' | 'status' | 'createdAt'>;

/** Every message of a chat, oldest first, read page by page. */
export async function loadWholeConversation(chatId: number): Promise<MessageDto[]> {
  const pages: MessageDto[][] = [];
  let cursor: number | null = null;
  do {
    const page: Awaited<ReturnType<typeof trpcClient.chats.messages.query>> = await trpcClient.chats.messages.query({
      chatId,
      cursor,
      limit: chatLimits.pageMax,
    });
    pages.unshift(page.items);
    cursor = page.nextCursor;
  } while (cursor !== null);
  return pages.flat();
}

function exportable(messages: ExportMessage[]): ExportMessage[] {
  return messages.filter((message) => message.role !== 'system' && (message.content.trim() || message.status !== 'streaming'));
}

function speaker(message: ExportMessage) {
  return message.role === 'user' ? chatTexts.speakerUser : chatTexts.speakerCoach;
}

function stoppedNote(message: ExportMessage) {
  return message.status === 'stopped' ? ` (${chatTexts.stoppedMark.toLowerCase()})` : '';
}

export function conversationAsText(messages: ExportMessage[]): string {
  const lines = [`${chatTexts.speakerCoach}: ${chatTexts.greeting}`];
  for (const message of exportable(messages)) {
    lines.push(`${speaker(message)}${stoppedNote(message)}: ${message.content.trim()}`);
  }
  return `${lines.join('\n\n')}\n`;
}

export function conversationAsMarkdown(title: string, messages: ExportMessage[], exportedAt = new Date()): string {
  const parts = [`# ${title.replace(/\s+/g, ' ').trim()}`, `_${chatTexts.pageTitle}, exported ${formatStamp(exportedAt)}_`];
  parts.push(`**${chatTexts.speakerCoach}**\n\n${chatTexts.greeting}`);
  for (const message of exportable(messages)) {
    const when = formatStamp(new Date(message.createdAt));
    const body = message.role === 'user' ? quoteBlock(message.content.trim()) : message.content.trim();
    parts.push(`**${speaker(message)}**${stoppedNote(message)} · ${when}\n\n${body}`);
  }
  return `${parts.join('\n\n---\n\n')}\n`;
}

// The user's words as a block quote, so that Markdown they typed cannot restyle the document.
function quoteBlock(text: string) {
  return text
    .split('\n')
    .map((line) => `> ${line}`)
    .join('\n');
}

function formatStamp(date: Date) {
  return date.toLocaleString('en-US', { dateStyle: 'medium', timeStyle: 'short' });
}

/** A file name from a chat title: no path or reserved characters, never empty. */
export function fileNameFor(title: string, extension: string): string {
  const cleaned = title
    .replace(/\.{3}$/, '')
    // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what a file name must not hold
    .replace(/[\\/:*?"<>|\u0000-\u001f]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  const base = trimChars(cleaned, '.').slice(0, 80).trim();
  return `${base || chatTexts.pageTitle}.${extension}`;
}
