import { z } from 'zod';
import { privacyTexts } from '../texts/index.js';

export const exportFormats = ['json', 'markdown'] as const;
export type ExportFormat = (typeof exportFormats)[number];

export const exportMyDataSchema = z.object({
  format: z.enum(exportFormats, { message: 'Please choose JSON or Markdown' }),
});

export const deleteAccountSchema = z.object({
  confirmation: z.literal(privacyTexts.deleteConfirmWord, { message: privacyTexts.deleteConfirmMismatch }),
});
export type DeleteAccountInput = z.infer<typeof deleteAccountSchema>;
