import { useState } from 'react';
import { chatTexts, commonTexts } from '../../../shared/texts';
import { notify } from '../../lib/notify';
import type { MessageDto } from './chatCache';
import { downloadFile } from '../../lib/downloadFile';
import { conversationAsMarkdown, conversationAsText, fileNameFor, loadWholeConversation } from './conversationExport';

/**
 * The header's Copy and Save for the open chat. When older pages are not loaded yet, the whole
 * conversation is read first, so both always hold all of it.
 */
export function useConversationExport(source: { chatId: number | null; title: string; messages: MessageDto[]; complete: boolean }) {
  const [exporting, setExporting] = useState(false);

  async function allMessages() {
    if (source.complete || source.chatId === null) return source.messages;
    setExporting(true);
    try {
      return await loadWholeConversation(source.chatId);
    } finally {
      setExporting(false);
    }
  }

  return {
    exporting,
    copy: async () => {
      try {
        const text = conversationAsText(await allMessages());
        await navigator.clipboard.writeText(text);
        notify.success(commonTexts.copiedToClipboard);
      } catch {
        notify.error(chatTexts.errorTitle, chatTexts.copyFailed);
      }
    },
    save: async () => {
      try {
        const markdown = conversationAsMarkdown(source.title, await allMessages());
        downloadFile(fileNameFor(source.title, 'md'), markdown, 'text/markdown;charset=utf-8');
      } catch {
        notify.error(chatTexts.errorTitle, chatTexts.loadMessagesFailed);
      }
    },
  };
}
