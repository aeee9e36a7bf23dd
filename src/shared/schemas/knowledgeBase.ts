import { z } from 'zod';
import { knowledgeBaseTexts as texts } from '../texts/index.js';

// The product spec's entities, validation rules and constants and limits: the user knowledge base, its minimums and messages.
export const emailTones = ['Formal', 'Friendly', 'Assertive', 'Humble'] as const;
export type EmailTone = (typeof emailTones)[number];

export const knowledgeBaseLimits = {
  fullNameMin: 2,
  jobTitleMin: 2,
  companyMin: 1,
  shortTextMax: 100,
  listMax: 2000,
  longTextMax: 10_000,
  directReportsMax: 10_000,
} as const;


// PostgreSQL text cannot hold NUL, and a lone surrogate is not text: both are refused plainly.
const loneSurrogate = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const storableText = (message: string) =>
  z
    .string({ message })
    .refine((value) => !value.includes('\u0000') && !loneSurrogate.test(value), texts.unsupportedCharacters);

const optionalText = (max: number) =>
  storableText(texts.tooLong(max))
    .trim()
    .max(max, texts.tooLong(max))
    .nullish()
    .transform((value) => value ?? '');

export const knowledgeBaseSchema = z.object({
  useKnowledgeBase: z.boolean().default(false),
  fullName: storableText(texts.fullNameMin)
    .trim()
    .min(knowledgeBaseLimits.fullNameMin, texts.fullNameMin)
    .max(knowledgeBaseLimits.shortTextMax, texts.tooLong(knowledgeBaseLimits.shortTextMax)),
  jobTitle: storableText(texts.jobTitleRequired)
    .trim()
    .min(knowledgeBaseLimits.jobTitleMin, texts.jobTitleRequired)
    .max(knowledgeBaseLimits.shortTextMax, texts.tooLong(knowledgeBaseLimits.shortTextMax)),
  company: storableText(texts.companyRequired)
    .trim()
    .min(knowledgeBaseLimits.companyMin, texts.companyRequired)
    .max(knowledgeBaseLimits.shortTextMax, texts.tooLong(knowledgeBaseLimits.shortTextMax)),
  department: optionalText(knowledgeBaseLimits.shortTextMax),
  team: optionalText(knowledgeBaseLimits.listMax),
  manager: optionalText(knowledgeBaseLimits.shortTextMax),
  directReports: z
    .union([
      z.literal(''),
      z
        .number({ message: texts.directReportsInvalid })
        .int(texts.directReportsInvalid)
        .min(0, texts.directReportsInvalid)
        .max(knowledgeBaseLimits.directReportsMax, texts.directReportsInvalid),
    ], { message: texts.directReportsInvalid })
    .nullish()
    .transform((value) => (value === '' || value === undefined ? null : value)),
  stakeholders: optionalText(knowledgeBaseLimits.listMax),
  emailTone: z.enum(emailTones, { message: texts.emailToneRequired }),
  signatureStyle: optionalText(knowledgeBaseLimits.longTextMax),
  writingExamples: optionalText(knowledgeBaseLimits.longTextMax),
  coachNotes: optionalText(knowledgeBaseLimits.longTextMax),
});
export type KnowledgeBaseInput = z.input<typeof knowledgeBaseSchema>;
export type KnowledgeBase = z.output<typeof knowledgeBaseSchema>;

/**
 * What knowledgeBase.get answers (null before anything was saved). emailTone is null while the
 * row holds only onboarding answers: the form asks for a tone before it saves.
 */
export type StoredKnowledgeBase = Omit<KnowledgeBase, 'emailTone'> & { emailTone: EmailTone | null; updatedAt: string };

// The onboarding's role answers (the product spec's entities 'Onboarding data'), merged into the knowledge base.
export const onboardingRoleSchema = z.object({
  jobTitle: storableText(texts.tooLong(knowledgeBaseLimits.shortTextMax)).trim().max(knowledgeBaseLimits.shortTextMax, texts.tooLong(knowledgeBaseLimits.shortTextMax)),
  company: storableText(texts.tooLong(knowledgeBaseLimits.shortTextMax)).trim().max(knowledgeBaseLimits.shortTextMax, texts.tooLong(knowledgeBaseLimits.shortTextMax)),
  manager: storableText(texts.tooLong(knowledgeBaseLimits.shortTextMax)).trim().max(knowledgeBaseLimits.shortTextMax, texts.tooLong(knowledgeBaseLimits.shortTextMax)),
  directReports: z.number().int().min(0).max(knowledgeBaseLimits.directReportsMax).nullable(),
});
export type OnboardingRole = z.infer<typeof onboardingRoleSchema>;

/** 'Ann, Bob ,, Cy' -> ['Ann', 'Bob', 'Cy'] (the product spec's entities: comma-separated lists). */
export function splitList(value: string): string[] {
  return value
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean);
}
