import { lockOwner } from '../../db/ownerLock.js';
import { TRPCError } from '@trpc/server';
import { apiKeyLimits, defaultApiKeyScopes, type ApiKeyScope } from '../../../shared/schemas/apiKeys.js';
import { apiKeyTexts } from '../../../shared/texts/index.js';
import { ApiKey } from '../../db/entities/ApiKey.js';
import type { AuthedContext } from '../../trpc/context.js';
import { newApiKey } from './apiKeyAuth.js';
import { recordSecurityEvent, requestEvent } from '../security/index.js';

export type ApiKeySummary = ReturnType<ApiKey['toSummary']>;

/** The key is in this answer and nowhere else, ever. */
export async function createApiKey(ctx: AuthedContext, input: { name: string; expiresInDays?: number | undefined; scopes?: ApiKeyScope[] | undefined }): Promise<ApiKeySummary & { key: string }> {
  const { key, prefix, keyHash } = newApiKey();
  const expiresAt = input.expiresInDays ? new Date(Date.now() + input.expiresInDays * 86_400_000) : null;
  // The count and the insert under the owner's row lock: parallel creates cannot pass the limit.
  const row = await ctx.em.transactional(async (tx) => {
    await lockOwner(tx, ctx.user.id);
    const count = await tx.count(ApiKey, { owner: ctx.user.id });
    if (count >= apiKeyLimits.maxKeys) throw new TRPCError({ code: 'CONFLICT', message: apiKeyTexts.tooMany(apiKeyLimits.maxKeys) });
    const created = tx.create(ApiKey, { owner: ctx.user.id, name: input.name, prefix, keyHash, expiresAt, scopes: input.scopes ?? [...defaultApiKeyScopes] });
    await tx.flush();
    return created;
  });
  await recordSecurityEvent(ctx.em, requestEvent(ctx, 'api_key_created'));
  const { lastUsedAt: _never, ...summary } = row.toSummary();
  return { ...summary, key, lastUsedAt: null };
}

export async function listApiKeys(ctx: AuthedContext): Promise<{ keys: ApiKeySummary[] }> {
  const rows = await ctx.em.find(ApiKey, { owner: ctx.user.id }, { orderBy: { createdAt: 'desc', id: 'desc' } });
  return { keys: rows.map((row) => row.toSummary()) };
}

/** Another user's key is answered like a missing one. */
export async function revokeApiKey(ctx: AuthedContext, input: { id: number }): Promise<void> {
  const deleted = await ctx.em.nativeDelete(ApiKey, { id: input.id, owner: ctx.user.id });
  if (deleted === 0) throw new TRPCError({ code: 'NOT_FOUND', message: apiKeyTexts.notFound });
  await recordSecurityEvent(ctx.em, requestEvent(ctx, 'api_key_revoked'));
}

