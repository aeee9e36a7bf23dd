import { z } from 'zod';
import { apiKeyTexts } from '../texts/apiKeys.js';

// Personal API keys: POST /api/api-keys {name}, DELETE /api/api-keys/{id}.
export const apiKeyLimits = { maxKeys: 10, maxNameLength: 60, maxExpiresInDays: 365 } as const;

/**
 * What a key may reach, chosen at creation. `chat`: chats, messages and the OpenAI-compatible API
 * (the default, and what keys made before scopes keep); `goals`; `memories`; `calendar:read`: the
 * meetings list, and meetings in the coach's context for the key's messages; `mail:read`: recent
 * mail in that context. Writing an invite or sending mail is no scope: never a key's.
 */
export const apiKeyScopes = ['chat', 'goals', 'memories', 'calendar:read', 'mail:read'] as const;
export type ApiKeyScope = (typeof apiKeyScopes)[number];
export const defaultApiKeyScopes: readonly ApiKeyScope[] = ['chat'];

export function isApiKeyScope(value: unknown): value is ApiKeyScope {
  return typeof value === 'string' && (apiKeyScopes as readonly string[]).includes(value);
}

const scopeSchema = z.string({ message: apiKeyTexts.scopesRequired }).refine(isApiKeyScope, { error: (issue) => apiKeyTexts.unknownScope(String(issue.input).slice(0, 40)) });

export const createApiKeySchema = z.object({
  name: z
    .string({ message: apiKeyTexts.nameRequired })
    .trim()
    .min(1, apiKeyTexts.nameRequired)
    .max(apiKeyLimits.maxNameLength, apiKeyTexts.nameTooLong),
  // Days until the key stops working (1 to 365); without it the key lasts until revoked.
  expiresInDays: z
    .number({ message: apiKeyTexts.expiresInDaysRange })
    .int(apiKeyTexts.expiresInDaysRange)
    .min(1, apiKeyTexts.expiresInDaysRange)
    .max(apiKeyLimits.maxExpiresInDays, apiKeyTexts.expiresInDaysRange)
    .optional(),
  scopes: z
    .array(scopeSchema, { message: apiKeyTexts.scopesRequired })
    .min(1, apiKeyTexts.scopesRequired)
    .max(apiKeyScopes.length * 2, apiKeyTexts.scopesRequired)
    .transform((scopes) => apiKeyScopes.filter((scope) => scopes.includes(scope)))
    .optional(),
});
export type CreateApiKeyInput = z.input<typeof createApiKeySchema>;

export const revokeApiKeySchema = z.object({ id: z.coerce.number({ message: apiKeyTexts.notFound }).int(apiKeyTexts.notFound).positive(apiKeyTexts.notFound).max(2_147_483_647, apiKeyTexts.notFound) });
export type RevokeApiKeyInput = z.input<typeof revokeApiKeySchema>;
