import { defineEntity, p } from '@mikro-orm/core';
import { toneSourceValues, type WritingStyle } from '../../../shared/schemas/writingStyle.js';
import { User } from './User.js';

// A user's writing style profile (the product spec's entities), one row per user: a new analysis replaces it.
// Only the profile is kept, never the emails it was learned from.
export const WritingStyleProfileSchema = defineEntity({
  name: 'WritingStyleProfile',
  tableName: 'writing_style_profile',
  properties: {
    user: () => p.oneToOne(User).owner().primary().deleteRule('cascade'),
    tone: p.text().nullable(),
    toneSource: p.enum(toneSourceValues),
    commonPhrases: p.json<string[]>(),
    greeting: p.text().nullable(),
    signOff: p.text().nullable(),
    structure: p.text().nullable(),
    length: p.text().nullable(),
    emailsAnalyzed: p.integer(),
    lastUpdated: p.datetime(),
  },
});

export class WritingStyleProfile extends WritingStyleProfileSchema.class {
  toDto(): WritingStyle {
    return {
      tone: this.tone ?? null,
      toneSource: this.toneSource,
      commonPhrases: this.commonPhrases,
      greeting: this.greeting ?? null,
      signOff: this.signOff ?? null,
      structure: this.structure ?? null,
      length: this.length ?? null,
      lastUpdated: this.lastUpdated.toISOString(),
      emailsAnalyzed: this.emailsAnalyzed,
    };
  }
}
WritingStyleProfileSchema.setClass(WritingStyleProfile);
