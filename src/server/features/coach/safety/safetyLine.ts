import { resourcesFor, type SafetyConfig, defaultSafetyConfig } from '../../../crisisResources.js';
import { safetyQuestion, safetyTexts, type SafetyResources } from '../../../../shared/texts/safety.js';
import { isCrisis, saysSafe, screenMessage, type SafetyCategory } from './screen.js';

// The safety line: the one function every reply of the coach passes through, whatever the channel
// (the coach turn of chat, voice, phone, rehearsal and nudge replies, and the OpenAI-compatible
// API). It screens the user's latest words before any model is asked and decides who answers:
//
// - self-harm or not feeling safe: the app alone. Coaching stops, the model is not asked; the
//   answer gives the crisis line and emergency number of the user's country (and the operator's
//   EAP) and asks whether they are safe now. In a rehearsal the other person steps out first.
// - harassment or discrimination, medical, legal, financial: the app's referral comes first, then
//   the model, told by a system instruction what it must not do (provider edge: renderContext.ts).
//   The referral is part of the reply whatever the model writes. The offline coach writes nothing
//   here: the app's referral and its own follow-up are the whole answer.
// - In a rehearsal, harassment is answered like the crisis (the other person steps out: no one
//   rehearses feedback for the person responsible), while a medical, legal or money line is part
//   of the conversation being practised and the other person answers in role.
//
// Each decision is counted by category (coach_safety_screen_total), never with the text.

export type SafetyTurn = {
  /** The user's latest words. */
  latest: string;
  /** What the coach said before them, if anything: an answer to the crisis question is read with it. */
  previous?: string;
  /** Who answers: the coach, or the other person of a rehearsal. */
  role: 'coach' | 'counterpart';
  spoken: boolean;
  /** The user's country, read only when an answer needs it (null: the operator's default). */
  country: () => Promise<string | null>;
  /** Who would answer: a model, or the offline coach (whose whole answer is then the app's). */
  modelKind: 'openai' | 'offline';
};

/** The reply: its deltas in order, and what the screen decided. */
export type SafeReply = { category: SafetyCategory | null; deltas: AsyncIterable<string> };

/** Asks the model; `safety` is the instruction the provider adds for a category, undefined for an ordinary turn. */
export type AskModel = (safety: SafetyCategory | undefined) => AsyncIterable<string>;

export type SafetyLine = {
  readonly config: SafetyConfig;
  reply(turn: SafetyTurn, ask: AskModel): SafeReply;
};

export function createSafetyLine(config: SafetyConfig, count?: (category: SafetyCategory | 'none') => void): SafetyLine {
  return {
    config,
    reply(turn, ask) {
      const category = screenMessage(turn.latest) ?? unansweredSafety(turn);
      count?.(category ?? 'none');
      if (!category) return { category, deltas: ask(undefined) };
      return { category, deltas: answer(config, turn, category, ask) };
    },
  };
}

/**
 * After the crisis answer, the user's reply to "Are you safe right now?": anything but a plain yes
 * ("no", "I don't know", a change of subject) is not taken as safe, and the crisis answer comes
 * again; a yes goes on as an ordinary turn.
 */
function unansweredSafety(turn: SafetyTurn): SafetyCategory | null {
  if (!turn.previous?.trim().endsWith(safetyQuestion)) return null;
  return saysSafe(turn.latest) ? null : 'unsafe';
}

/** The line with the built-in table and no EAP, for a turn whose caller hands none (tests of the turn alone). */
export const defaultSafetyLine = createSafetyLine(defaultSafetyConfig);

async function* answer(config: SafetyConfig, turn: SafetyTurn, category: SafetyCategory, ask: AskModel): AsyncIterable<string> {
  // A line of business the rehearsal plays out: the other person answers in role.
  if (turn.role === 'counterpart' && !isCrisis(category) && category !== 'harassment') {
    yield* ask(undefined);
    return;
  }
  const resources: SafetyResources = { ...resourcesFor(config, await turn.country()), eap: config.eap };
  const gap = turn.spoken ? ' ' : '\n\n';
  const steppingOut = turn.role === 'counterpart' ? `${safetyTexts.steppingOut} ` : '';
  if (isCrisis(category)) {
    yield steppingOut + (category === 'self_harm' ? safetyTexts.selfHarm : safetyTexts.unsafe)(resources, turn.spoken);
    return;
  }
  const { referral, followUp } = referralOf(category, resources, turn.spoken);
  if (turn.role === 'counterpart' || turn.modelKind === 'offline') {
    yield steppingOut + referral + gap + followUp;
    return;
  }
  yield referral + gap;
  yield* ask(category);
}

function referralOf(category: Exclude<SafetyCategory, 'self_harm' | 'unsafe'>, r: SafetyResources, spoken: boolean): { referral: string; followUp: string } {
  switch (category) {
    case 'harassment':
      return { referral: safetyTexts.harassmentReferral(r, spoken), followUp: safetyTexts.harassmentFollowUp };
    case 'medical':
      return { referral: safetyTexts.medicalReferral(r, spoken), followUp: safetyTexts.medicalFollowUp };
    case 'legal':
      return { referral: safetyTexts.legalReferral(r, spoken), followUp: safetyTexts.legalFollowUp };
    case 'financial':
      return { referral: safetyTexts.financialReferral(r, spoken), followUp: safetyTexts.financialFollowUp };
  }
}
