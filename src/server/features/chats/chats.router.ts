import {
  chatEventsSchema,
  chatRefSchema,
  createChatSchema,
  messagesPageSchema,
  sendMessageSchema,
  updateChatSchema,
} from '../../../shared/schemas/chats.js';
import { protectedProcedure, router, statementProcedure } from '../../trpc/init.js';
import { chatEvents } from './chatEvents.js';
import { createChat } from './createChat.js';
import { deleteChat } from './deleteChat.js';
import { listChats } from './listChats.js';
import { listMessages } from './listMessages.js';
import { sendMessage } from './sendMessage.js';
import { stopReply } from './stopReply.js';
import { updateChat } from './updateChat.js';

// Every chat procedure is open to an API key with the `chat` scope.
const chatProcedure = protectedProcedure.meta({ keys: ['chat'] });

export const chatsRouter = router({
  // One statement that checks the account too (listChats.ts), so no EntityManager of its own.
  list: statementProcedure.meta({ keys: ['chat'] }).query(({ ctx }) => listChats(ctx)),
  create: chatProcedure.input(createChatSchema).mutation(({ ctx, input }) => createChat(ctx, input)),
  update: chatProcedure.input(updateChatSchema).mutation(({ ctx, input }) => updateChat(ctx, input)),
  delete: chatProcedure.input(chatRefSchema).mutation(({ ctx, input }) => deleteChat(ctx, input)),
  messages: chatProcedure.input(messagesPageSchema).query(({ ctx, input }) => listMessages(ctx, input)),
  send: chatProcedure.input(sendMessageSchema).mutation(({ ctx, input }) => sendMessage(ctx, input)),
  stop: chatProcedure.input(chatRefSchema).mutation(({ ctx, input }) => stopReply(ctx, input)),
  // Which coach answers: the configured model, or the built-in offline coach (the UI says so);
  // and whether voice (transcription and speech) can be used, which the microphone buttons show.
  coachInfo: chatProcedure.query(({ ctx }) => ({ kind: ctx.deps.coach.kind, model: ctx.deps.coach.model, voice: Boolean(ctx.deps.providers.voice) })),
  events: chatProcedure.input(chatEventsSchema).subscription(({ ctx, input, signal }) => chatEvents(ctx, input, signal)),
});
