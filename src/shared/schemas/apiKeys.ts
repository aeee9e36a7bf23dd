import { z } from 'zod';
import { apiKeyTexts } from '../texts/apiKeys.js';

// Personal API keys (issue 15): POST /api/api-keys {name}, DELETE /api/api-keys/{id}.
export const apiKeyLimits = { maxKeys: 10, maxNameLength: 60, maxExpiresInDays: 365 } as const;

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
});
export type CreateApiKeyInput = z.input<typeof createApiKeySchema>;

export const revokeApiKeySchema = z.object({ id: z.coerce.number({ message: apiKeyTexts.notFound }).int(apiKeyTexts.notFound).positive(apiKeyTexts.notFound).max(2_147_483_647, apiKeyTexts.notFound) });
export type RevokeApiKeyInput = z.input<typeof revokeApiKeySchema>;
