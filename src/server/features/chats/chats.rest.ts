import { Router, type Request } from 'express';
import { TRPCError } from '@trpc/server';
import { chatTexts } from '../../../shared/texts/index.js';
import type { AppDeps } from '../../deps.js';
import { restRoute } from '../../http/rest.js';

// SPEC section 7 chat paths, answered by the chats router's procedures with the spec's shapes:
// a list of chats, a chat, the messages, a message.
function chatIdOf(req: Request): number {
  const id = Number(req.params.id);
  return Number.isSafeInteger(id) ? id : -1;
}

function optionalNumber(value: unknown): number | undefined {
  return typeof value === 'string' && value !== '' ? Number(value) : undefined;
}

export function chatRestRoutes(deps: AppDeps): Router {
  const routes = Router();
  routes.get('/api/chats', restRoute(deps, (caller) => caller.chats.list()));
  routes.post('/api/chats', restRoute(deps, (caller, req) => caller.chats.create(req.body ?? {}), 201));
  routes.put('/api/chats/:id', restRoute(deps, (caller, req) => caller.chats.update({ ...req.body, chatId: chatIdOf(req) })));
  routes.delete('/api/chats/:id', restRoute(deps, async (caller, req) => {
    await caller.chats.delete({ chatId: chatIdOf(req) });
    return undefined;
  }));
  routes.get('/api/chats/:id/messages', restRoute(deps, async (caller, req) => {
    const page = await caller.chats.messages({
      chatId: chatIdOf(req),
      limit: optionalNumber(req.query.limit) ?? 100,
      cursor: optionalNumber(req.query.before),
    });
    return page.items;
  }));
  // Posting the user's message also starts the coach's reply (streamed on /ws and tRPC).
  routes.post('/api/chats/:id/messages', restRoute(deps, async (caller, req) => {
    const role = req.body?.role;
    if (role !== undefined && role !== 'user') throw new TRPCError({ code: 'BAD_REQUEST', message: chatTexts.onlyUserMessages });
    const { userMessage } = await caller.chats.send({ chatId: chatIdOf(req), content: req.body?.content });
    return userMessage;
  }, 201));
  return routes;
}
