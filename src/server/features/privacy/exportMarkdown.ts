import type { ExportRow, ExportSection, UserDataExport } from './exportUserData.js';

// The Markdown export: readable by a person. Chats are written as conversations; every other
// table as one list of fields per row, so a newly exported table appears without more code.

const roleNames: Record<string, string> = { user: 'You', assistant: 'AI Coach', system: 'System' };

function humanise(key: string): string {
  const words = key.replace(/([a-z0-9])([A-Z])/g, '$1 $2').toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

function inline(value: unknown): string {
  if (value === null || value === undefined || value === '') return '_(empty)_';
  if (typeof value === 'object') return `\`${JSON.stringify(value)}\``;
  const text = String(value);
  return text.includes('\n') ? `\n\n${quote(text)}\n` : text;
}

function quote(text: string): string {
  return text
    .split('\n')
    .map((line) => `  > ${line}`)
    .join('\n');
}

function fields(row: ExportRow): string {
  return Object.entries(row)
    .map(([key, value]) => `- **${humanise(key)}**: ${inline(value)}`)
    .join('\n');
}

function genericSection(section: ExportSection): string {
  if (!section.rows.length) return `## ${section.title}\n\nNothing stored.\n`;
  if (section.single) return `## ${section.title}\n\n${fields(section.rows[0]!)}\n`;
  return `## ${section.title}\n\n${section.rows.map((row, i) => `### ${i + 1}\n\n${fields(row)}`).join('\n\n')}\n`;
}

function conversations(chats: ExportSection, messages: ExportSection | undefined): string {
  if (!chats.rows.length) return `## ${chats.title}\n\nNo chats stored.\n`;
  const byChat = new Map<unknown, ExportRow[]>();
  for (const message of messages?.rows ?? []) {
    const list = byChat.get(message.chatId) ?? [];
    list.push(message);
    byChat.set(message.chatId, list);
  }
  const parts = chats.rows.map((chat) => {
    const header = `### ${String(chat.title)}\n\nStarted ${String(chat.createdAt)}, last active ${String(chat.updatedAt)}${chat.isPinned ? ', pinned' : ''}.`;
    const lines = (byChat.get(chat.id) ?? []).map(
      (message) => `**${roleNames[String(message.role)] ?? String(message.role)}** (${String(message.createdAt)}):\n\n${String(message.content)}`,
    );
    return [header, ...(lines.length ? lines : ['_No messages._'])].join('\n\n');
  });
  return `## ${chats.title}\n\n${parts.join('\n\n---\n\n')}\n`;
}

export function renderExportMarkdown(data: UserDataExport): string {
  const chats = data.sections.find((section) => section.section === 'chats');
  const messages = data.sections.find((section) => section.section === 'messages');
  const body = data.sections
    .filter((section) => !(chats && section === messages))
    .map((section) => (section === chats ? conversations(section, messages) : genericSection(section)));
  return [`# AI Coach data export\n\nExported ${data.exportedAt}.\n`, ...body].join('\n');
}
