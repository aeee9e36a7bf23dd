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
  limit: z.number().int().min(1).max(chatLimits.pageMax).default(chatLimits.pageDefault),
});
export type MessagesPageInput = z.input<typeof messagesPageSchema>;

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
