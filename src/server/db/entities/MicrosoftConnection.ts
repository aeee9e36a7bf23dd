import { defineEntity, p } from '@mikro-orm/core';
import { User } from './User.js';

export const microsoftServices = ['email', 'calendar', 'teams'] as const;
export type MicrosoftService = (typeof microsoftServices)[number];

// One Microsoft 365 connection per user and service. The tokens are sealed with AES-256-GCM
// (features/microsoft/tokenCipher.ts); keyId names the key that sealed them, so keys can rotate.
// Never exported, never sent to a client: the columns are hidden.
export const MicrosoftConnectionSchema = defineEntity({
  name: 'MicrosoftConnection',
  tableName: 'microsoft_connection',
  uniques: [{ properties: ['user', 'service'] }],
  properties: {
    id: p.integer().primary().autoincrement(),
    user: () => p.manyToOne(User).deleteRule('cascade'),
    service: p.enum(microsoftServices),
    accountEmail: p.string().length(320).nullable(),
    keyId: p.string().length(32).hidden(),
    accessTokenSealed: p.text().hidden(),
    refreshTokenSealed: p.text().nullable().hidden(),
    /** When the access token stops working; null when unknown (a pasted token). */
    expiresAt: p.datetime().nullable(),
    /** Set when a refresh needs the user (invalid_grant, consent, MFA): reconnect to fix. */
    needsReconnect: p.boolean().default(false),
    createdAt: p.datetime().onCreate(() => new Date()),
    updatedAt: p.datetime().onCreate(() => new Date()).onUpdate(() => new Date()),
  },
});

export class MicrosoftConnection extends MicrosoftConnectionSchema.class {}
MicrosoftConnectionSchema.setClass(MicrosoftConnection);
