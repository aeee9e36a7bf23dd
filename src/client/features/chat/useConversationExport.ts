import { useEffect, useState } from 'react';
import { chatTexts, commonTexts } from '../../../shared/texts';
import { notify } from '../../lib/notify';
import type { MessageDto } from './chatCache';
import { downloadFile } from '../../lib/downloadFile';

// The conversion to text and Markdown, fetched once a stored chat is open (a new one has nothing
// to copy): not part of /app's first view.
const loadExport = () => import('./conversationExport');

/**
 * The header's Copy and Save for the open chat. When older pages are not loaded yet, the whole
 * conversation is read first, so both always hold all of it.
 */
export function useConversationExport(source: { chatId: number | null; title: string; messages: MessageDto[]; complete: boolean }) {
  const [exporting, setExporting] = useState(false);
  useEffect(() => {
    if (source.chatId !== null) void loadExport();
  }, [source.chatId]);

  async function allMessages() {
    if (source.complete || source.chatId === null) return source.messages;
    setExporting(true);
    try {
      return await (await loadExport()).loadWholeConversation(source.chatId);
    } finally {
      setExporting(false);
    }
  }

  return {
    exporting,
    copy: async () => {
      try {
        const { conversationAsText } = await loadExport();
        const text = conversationAsText(await allMessages());
        await navigator.clipboard.writeText(text);
        notify.success(commonTexts.copiedToClipboard);
      } catch {
        notify.error(chatTexts.errorTitle, chatTexts.copyFailed);
      }
    },
    save: async () => {
      try {
        const { conversationAsMarkdown, fileNameFor } = await loadExport();
        const markdown = conversationAsMarkdown(source.title, await allMessages());
        downloadFile(fileNameFor(source.title, 'md'), markdown, 'text/markdown;charset=utf-8');
      } catch {
        notify.error(chatTexts.errorTitle, chatTexts.loadMessagesFailed);
      }
    },
  };
}
