import { z } from 'zod';
import { chatLimits } from '../constants.js';
import { chatTexts } from '../texts/index.js';

export const chatIdSchema = z
  .number({ message: chatTexts.chatNotFound })
  .int(chatTexts.chatNotFound)
  .positive(chatTexts.chatNotFound)
  .max(2_147_483_647, chatTexts.chatNotFound);

export const titleSchema = z
  .string()
  .trim()
  .min(1, chatTexts.titleRequired)
  .max(chatLimits.titleMax, chatTexts.titleTooLong(chatLimits.titleMax));

export const createChatSchema = z.object({ title: titleSchema.optional() }).optional().default({});
export type CreateChatInput = z.input<typeof createChatSchema>;

export const updateChatSchema = z
  .object({ chatId: chatIdSchema, title: titleSchema.optional(), isPinned: z.boolean().optional() })
  .refine((input) => input.title !== undefined || input.isPinned !== undefined, { message: chatTexts.nothingToUpdate });
export type UpdateChatInput = z.infer<typeof updateChatSchema>;

export const chatRefSchema = z.object({ chatId: chatIdSchema });

export const messagesPageSchema = z.object({
  chatId: chatIdSchema,
  // The id of the oldest message already shown: the page holds the ones before it.
  cursor: z.number().int().positive().nullish(),
  limit: z.number().int().min(1).max(chatLimits.restPageMax).default(chatLimits.pageDefault),
});
export type MessagesPageInput = z.input<typeof messagesPageSchema>;

// The query string of GET /api/chats/{id}/messages. `before` takes the page's Next-Cursor.
const wholeNumber = (message: string) => z.string({ error: message }).regex(/^\d{1,15}$/, message).transform(Number);
export const messagesQuerySchema = z.object({
  limit: wholeNumber(chatTexts.pageLimit)
    .pipe(z.number().min(1, chatTexts.pageLimit).max(chatLimits.restPageMax, chatTexts.pageLimit))
    .optional()
    .describe(`How many messages, ${1} to ${chatLimits.restPageMax} (default ${chatLimits.restPageDefault})`),
  before: wholeNumber(chatTexts.pageCursor)
    .pipe(z.number().min(1, chatTexts.pageCursor))
    .optional()
    .describe('The Next-Cursor of the page before: the messages older than it'),
});

export const messageContentSchema = z
  .string({ message: chatTexts.emptyMessage })
  .trim()
  .min(1, chatTexts.emptyMessage)
  .max(chatLimits.messageMax, chatTexts.messageTooLong(chatLimits.messageMax));

export const sendMessageSchema = z.object({ chatId: chatIdSchema, content: messageContentSchema });
export type SendMessageInput = z.infer<typeof sendMessageSchema>;

export const chatEventsSchema = z.object({
  chatId: chatIdSchema,
  lastEventId: z.string().max(64).nullish(),
});
