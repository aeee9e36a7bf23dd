import type { IncomingMessage } from 'node:http';
import { TRPCError } from '@trpc/server';
import type { WebSocket, WebSocketServer } from 'ws';
import { z } from 'zod';
import { chatTexts, commonTexts } from '../../../shared/texts/index.js';
import { findInputProblem } from '../../http/inputBoundary.js';
import { floodGuard } from '../../http/socketFlood.js';
import type { AppDeps } from '../../deps.js';
import { upgradeContext } from '../../http/requestContext.js';
import { publicMessage } from '../../trpc/init.js';
import { createCaller } from '../../trpc/root.js';

// The spec's JSON WebSocket at /ws (the product spec's REST calls). In: chat_message {chatId, content}, and
// get_messages {chatId} to (re)load a chat. Out: messages_received {chatId, messages},
// new_message {chatId, message} for the user's message and, once complete, the coach's, and
// error {message}. Everything goes through the same procedures as tRPC and REST, as the user
// whose session cookie opened the socket; the connection survives any bad frame.
export const inboundFrameSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('chat_message'), chatId: z.number(), content: z.string() }),
  z.object({ type: z.literal('get_messages'), chatId: z.number() }),
]);

export function attachChatSocket(deps: AppDeps, wss: WebSocketServer) {
  wss.on('connection', (ws: WebSocket, req: IncomingMessage) => {
    const subscriptions = new Map<number, () => void>();
    const send = (frame: object) => {
      if (ws.readyState === ws.OPEN) ws.send(JSON.stringify(frame));
    };
    const fail = (error: unknown) => {
      if (error instanceof TRPCError) return send({ type: 'error', message: publicMessage(error) });
      deps.log.error({ err: error }, '/ws frame failed');
      send({ type: 'error', message: commonTexts.genericError });
    };
    const callerPromise = upgradeContext(deps, req).then(createCaller);

    // Only after a procedure has confirmed the chat belongs to this user. `chatId` is the id the
    // client named; `stored` the chat's own id, which the bus carries (they differ for a demo
    // guest's copy of a sample chat, which answers to the sample's id: trpc/sampleCopies.ts).
    const follow = (chatId: number, stored = chatId) => {
      if (subscriptions.has(chatId)) return;
      subscriptions.set(chatId, deps.chatBus.subscribe(stored, (event) => {
        if (event.type === 'message.created' && event.message.role === 'user') {
          send({ type: 'new_message', chatId, message: event.message });
        } else if (event.type === 'message.completed') {
          if (event.error) send({ type: 'error', chatId, message: event.error });
          if (event.message.content) send({ type: 'new_message', chatId, message: event.message });
        }
      }));
    };

    const flood = floodGuard();
    ws.on('message', async (data, isBinary) => {
      if (flood()) {
        send({ type: 'error', message: chatTexts.socketFlood });
        return void ws.close(1008, 'Too many messages');
      }
      let frame: z.infer<typeof inboundFrameSchema>;
      try {
        const json: unknown = isBinary ? null : JSON.parse(data.toString());
        const problem = findInputProblem(json);
        if (problem) return send({ type: 'error', message: problem.message });
        const parsed = inboundFrameSchema.safeParse(json);
        if (!parsed.success) return send({ type: 'error', message: 'Unknown or malformed message' });
        frame = parsed.data;
      } catch {
        return send({ type: 'error', message: commonTexts.badJson });
      }
      try {
        const caller = await callerPromise;
        if (frame.type === 'get_messages') {
          const page = await caller.chats.messages({ chatId: frame.chatId, limit: 100 });
          follow(frame.chatId, page.items[0]?.chatId);
          return send({ type: 'messages_received', chatId: frame.chatId, messages: page.items });
        }
        // Check ownership before following, so a foreign chat id learns nothing.
        const latest = await caller.chats.messages({ chatId: frame.chatId, limit: 1 });
        follow(frame.chatId, latest.items[0]?.chatId);
        const sent = await caller.chats.send({ chatId: frame.chatId, content: frame.content });
        // A visitor's first write made them a guest space, and a sample chat's message went to the
        // guest's copy of it: follow the copy, and tell of the message already sent.
        const stored = sent.userMessage.chatId;
        if (stored !== (latest.items[0]?.chatId ?? frame.chatId)) {
          subscriptions.get(frame.chatId)?.();
          subscriptions.delete(frame.chatId);
          follow(frame.chatId, stored);
          send({ type: 'new_message', chatId: frame.chatId, message: sent.userMessage });
        }
      } catch (error) {
        fail(error);
      }
    });
    // A frame over the size limit or a broken frame: ws closes the socket (1009/1002) and reports
    // it here; without a listener the error would bring the whole server down.
    ws.on('error', (error) => deps.log.info({ err: error }, '/ws connection closed on a bad frame'));
    ws.on('close', () => {
      for (const unsubscribe of subscriptions.values()) unsubscribe();
      subscriptions.clear();
    });
  });
}
