import { Router, type Request } from 'express';
import { TRPCError } from '@trpc/server';
import { chatLimits } from '../../../shared/constants.js';
import { messagesQuerySchema } from '../../../shared/schemas/chats.js';
import { chatTexts } from '../../../shared/texts/index.js';
import type { AppDeps } from '../../deps.js';
import { restRoute } from '../../http/rest.js';

// The product spec's REST calls chat paths, answered by the chats router's procedures with the spec's shapes:
// a list of chats, a chat, the messages, a message.
function chatIdOf(req: Request): number {
  const id = Number(req.params.id);
  return Number.isSafeInteger(id) ? id : -1;
}


/** The response header of GET /api/chats/{id}/messages naming the older page's cursor. */
export const nextCursorHeader = 'Next-Cursor';

export function chatRestRoutes(deps: AppDeps): Router {
  const routes = Router();
  routes.get('/api/chats', restRoute(deps, (caller) => caller.chats.list()));
  routes.post('/api/chats', restRoute(deps, (caller, req) => caller.chats.create(req.body ?? {}), 201));
  routes.put('/api/chats/:id', restRoute(deps, (caller, req) => caller.chats.update({ ...req.body, chatId: chatIdOf(req) })));
  routes.delete('/api/chats/:id', restRoute(deps, async (caller, req) => {
    await caller.chats.delete({ chatId: chatIdOf(req) });
    return undefined;
  }));
  // Backwards compatible (docs/spec-differences.md, item 7): a request without `limit` or `before` is answered the array
  // of the newest messages (oldest to newest) it always was; a client that pages (sends either)
  // is answered `{ messages, nextCursor }`. Both carry the cursor in the Next-Cursor header too:
  // the id to send as `before` for the older page, or null at the start of the chat.
  routes.get('/api/chats/:id/messages', restRoute(deps, async (caller, req, res) => {
    const query = messagesQuerySchema.safeParse(req.query);
    if (!query.success) throw new TRPCError({ code: 'BAD_REQUEST', message: query.error.issues[0]?.message ?? chatTexts.pageLimit, cause: query.error });
    const page = await caller.chats.messages({
      chatId: chatIdOf(req),
      limit: query.data.limit ?? chatLimits.restPageDefault,
      cursor: query.data.before,
    });
    res.setHeader(nextCursorHeader, String(page.nextCursor));
    const paging = req.query.limit !== undefined || req.query.before !== undefined;
    return paging ? { messages: page.items, nextCursor: page.nextCursor ?? null } : page.items;
  }));
  // Posting the user's message also starts the coach's reply (streamed on /ws and tRPC). Only the
  // user's role is taken: the coach's words are the server's to store (docs/spec-differences.md, item 6).
  routes.post('/api/chats/:id/messages', restRoute(deps, async (caller, req) => {
    const role = req.body?.role;
    if (role !== undefined && role !== 'user') throw new TRPCError({ code: 'BAD_REQUEST', message: chatTexts.onlyUserMessages });
    const { userMessage } = await caller.chats.send({ chatId: chatIdOf(req), content: req.body?.content });
    return userMessage;
  }, 201));
  return routes;
}
