import { z } from 'zod';
import { type MicrosoftServiceName, microsoftServiceNames } from '../microsoftServiceNames.js';
import { microsoftTexts } from '../texts/microsoft.js';

// The Microsoft router's inputs (the product spec's entities, validation rules and REST calls).

export const microsoftServiceKeys = ['email', 'calendar', 'teams'] as const;
export type MicrosoftServiceKey = (typeof microsoftServiceKeys)[number];

// The display names (the product spec's screens) live in a module without zod: the client's route options
// import them.
export { type MicrosoftServiceName, microsoftServiceNames };

export const serviceKeyOfName = (name: MicrosoftServiceName): MicrosoftServiceKey =>
  name === 'Microsoft Calendar' ? 'calendar' : name === 'Microsoft Teams' ? 'teams' : 'email';
export const serviceNameOfKey = (key: MicrosoftServiceKey): MicrosoftServiceName => microsoftTexts.serviceNames[key];

/** The product spec's entities: the service name lowercased with the first space replaced by an underscore. */
export const manualServiceOfName = (name: MicrosoftServiceName | 'Microsoft') => name.toLowerCase().replace(' ', '_');

// Text that a person typed: no NUL characters, no lone surrogates.
const cleanText = (schema: z.ZodString) =>
  schema.refine((value) => !value.includes('\u0000') && !loneSurrogate.test(value), 'The text contains characters that are not allowed');
const loneSurrogate = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

export const serviceNameSchema = z.enum(microsoftServiceNames, { message: microsoftTexts.unknownService });

/** Pasted text becomes a token: HTML tags stripped, trimmed (the product spec's validation rules). */
export const cleanPastedToken = (raw: string) => raw.replace(/<[^<>]*>/g, '').trim();

export const manualTokenSchema = z.object({
  token: cleanText(z.string({ message: microsoftTexts.invalidToken }).max(20_000, microsoftTexts.invalidToken))
    .transform(cleanPastedToken)
    .pipe(z.string().min(1, microsoftTexts.invalidToken).regex(/^[\x21-\x7e]+$/, microsoftTexts.invalidToken)),
  service: z
    .enum(['microsoft_email', 'microsoft_calendar', 'microsoft_teams', 'microsoft'], { message: microsoftTexts.unknownService })
    .default('microsoft_email'),
});

export const manualServiceKey = (service: z.infer<typeof manualTokenSchema>['service']): MicrosoftServiceKey =>
  service === 'microsoft_calendar' ? 'calendar' : service === 'microsoft_teams' ? 'teams' : 'email';

export const serviceInputSchema = z.object({ service: serviceNameSchema.default('Microsoft Email') });

export const pollTokenSchema = z.object({
  deviceCodeInfo: cleanText(z.string({ message: microsoftTexts.badDeviceCodeInfo }).min(1, microsoftTexts.badDeviceCodeInfo).max(4000, microsoftTexts.badDeviceCodeInfo)),
});

export const callbackSchema = z.object({
  state: z.string().max(4000).optional(),
  code: z.string().max(8000).optional(),
  error: z.string().max(200).optional(),
});

export const disconnectSchema = z.object({ service: z.enum(microsoftServiceKeys, { message: microsoftTexts.unknownService }) });

export const emailsPageSchema = z.object({
  pageToken: z.string().max(4000).optional(),
  pageSize: z.number().int().min(1).max(50).default(25),
});

export const createFolderSchema = z.object({
  displayName: cleanText(z.string({ message: microsoftTexts.folderNameRequired }))
    .transform((value) => value.trim())
    .pipe(z.string().min(1, microsoftTexts.folderNameRequired).max(255, microsoftTexts.folderNameTooLong)),
  parentFolderId: z
    .string()
    .max(512)
    .regex(/^[A-Za-z0-9+/=_-]*$/, microsoftTexts.folderNotFound)
    .nullish()
    .transform((value) => value || undefined),
});

const graphId = z.string({ message: microsoftTexts.cannotMove }).min(1, microsoftTexts.cannotMove).max(512).regex(/^[A-Za-z0-9+/=_-]+$/, 'An email id is not valid');

export const moveEmailsSchema = z.object({
  messageIds: z.array(graphId, { message: microsoftTexts.cannotMove }).min(1, microsoftTexts.cannotMove).max(500, microsoftTexts.tooManyToMove),
  destinationFolderId: graphId,
});
