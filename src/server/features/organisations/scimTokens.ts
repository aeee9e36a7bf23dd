import crypto from 'node:crypto';
import type { MikroORM } from '@mikro-orm/core';
import { TRPCError } from '@trpc/server';
import { organisationLimits } from '../../../shared/schemas/organisations.js';
import { organisationTexts } from '../../../shared/texts/index.js';
import { ScimToken } from '../../db/entities/Organisation.js';
import type { AuthedContext } from '../../trpc/context.js';
import type { AdminContext } from './audit.js';

// The identity provider's bearer tokens for /scim/v2: 'scim_' and 32 random bytes (base64url). The
// token is in the answer that creates it and nowhere else; the row keeps its SHA-256. A revoked
// token answers 401 at once: every SCIM request looks its token up.

const tokenPrefix = 'scim_';
const lastUsedWriteMs = 60_000;

export function hashScimToken(token: string): string {
  return crypto.createHash('sha256').update(token).digest('hex');
}

export type ScimTokenSummary = ReturnType<ScimToken['toSummary']>;

export async function createScimToken(ctx: AdminContext): Promise<ScimTokenSummary & { token: string }> {
  const token = tokenPrefix + crypto.randomBytes(32).toString('base64url');
  const organisationId = ctx.user.organisationId;
  const active = await ctx.em.count(ScimToken, { organisationId, revokedAt: null });
  if (active >= organisationLimits.maxScimTokens) throw new TRPCError({ code: 'CONFLICT', message: organisationTexts.tooManyTokens });
  const row = ctx.em.create(ScimToken, { organisationId, prefix: token.slice(0, tokenPrefix.length + 6), tokenHash: hashScimToken(token), lastUsedAt: null, revokedAt: null });
  await ctx.em.flush();
  ctx.audit.note({ target: row.prefix });
  ctx.deps.log.info({ organisationId, tokenId: row.id, by: ctx.user.id }, 'SCIM token created');
  return { ...row.toSummary(), token };
}

export async function listScimTokens(ctx: AuthedContext): Promise<{ tokens: ScimTokenSummary[] }> {
  const rows = await ctx.em.find(ScimToken, { organisationId: ctx.user.organisationId }, { orderBy: { id: 'desc' } });
  return { tokens: rows.map((row) => row.toSummary()) };
}

export async function revokeScimToken(ctx: AdminContext, input: { id: number }): Promise<void> {
  const row = await ctx.em.findOne(ScimToken, { id: input.id, organisationId: ctx.user.organisationId });
  if (!row) throw new TRPCError({ code: 'NOT_FOUND', message: organisationTexts.scimTokenNotFound });
  const changed = await ctx.em.nativeUpdate(ScimToken, { id: input.id, organisationId: ctx.user.organisationId, revokedAt: null }, { revokedAt: new Date() });
  ctx.audit.note({ target: row.prefix, changes: changed === 0 ? { alreadyRevoked: true } : undefined });
  ctx.deps.log.info({ tokenId: input.id, by: ctx.user.id }, 'SCIM token revoked');
}

/** The organisation a live (not revoked) token provisions, or null. */
export async function organisationOfScimToken(orm: MikroORM, token: string): Promise<number | null> {
  if (!token.startsWith(tokenPrefix)) return null;
  const em = orm.em.fork();
  const row = await em.findOne(ScimToken, { tokenHash: hashScimToken(token), revokedAt: null });
  if (!row) return null;
  if (!row.lastUsedAt || Date.now() - row.lastUsedAt.getTime() >= lastUsedWriteMs) {
    await em.nativeUpdate(ScimToken, { id: row.id }, { lastUsedAt: new Date() });
  }
  return row.organisationId;
}
