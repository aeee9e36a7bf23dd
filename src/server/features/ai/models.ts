import { TRPCError } from '@trpc/server';
import type { AppDeps } from '../../deps.js';

// GET /api/openai/models: the one model that answers, in OpenAI's shape. It is the
// configured model, or the offline coach under its own id when no key is set.

// When this API first served models; a fixed date, so every instance answers the same.
const servedSince = Math.floor(Date.parse('2026-11-23T00:00:00Z') / 1000);

export type OpenAiModel = { id: string; object: 'model'; created: number; owned_by: string };

export function listModels(ctx: { deps: Pick<AppDeps, 'coach'> }): { object: 'list'; data: OpenAiModel[] } {
  return { object: 'list', data: [describeModel(ctx.deps.coach.model)] };
}

export function getModel(ctx: { deps: Pick<AppDeps, 'coach'> }, input: { id: string }): OpenAiModel {
  if (input.id !== ctx.deps.coach.model) {
    throw new TRPCError({ code: 'NOT_FOUND', message: `The model '${input.id}' does not exist. GET /api/openai/models lists the model this server answers with.` });
  }
  return describeModel(input.id);
}

function describeModel(id: string): OpenAiModel {
  return { id, object: 'model', created: servedSince, owned_by: 'ai-coach' };
}
