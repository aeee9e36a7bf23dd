import { coachingFrameworks, coachingThemes, labelBit, type CoachingFramework, type CoachingTheme } from '../../../shared/schemas/analytics.js';
import { isSensitive } from '../../../shared/memoryPolicy.js';
import { frameworkIn } from './offline/intents.js';

// The coach's own topic labels for a user's turn: which framework the turn works in and which
// work themes it is about, from fixed lists (shared/schemas/analytics.ts). They are what an
// organisation's analytics count, so they hold no word of the user's: a label or nothing. A turn
// that touches a sensitive topic (health, emotions, family, pay, legal matters, ...: the memory
// policy's list) and a turn the safety line answered get no theme, so no admin chart can hint at
// them. Pure and deterministic, for the model's turns and the offline coach's alike.

const inputMax = 2000;

// Whole-word alternations only (linear in the input's length).
const themePatterns: Record<CoachingTheme, RegExp> = {
  feedback: /\b(?:feedback|performance reviews?|appraisals?|difficult conversations?|hard conversations?|criticism|critique|praise)\b/i,
  goals: /\b(?:goals?|okrs?|objectives?|key results?|targets?|milestones?|smart)\b/i,
  meetings: /\b(?:meetings?|agendas?|1:1s?|one[- ]on[- ]ones?|stand-?ups?|retros?|retrospectives?|workshops?|all[- ]hands|offsites?)\b/i,
  communication: /\b(?:e-?mails?|presentations?|presenting|present to|pitch(?:es|ing)?|public speaking|writing|slides?|communicat(?:e|ing|ion))\b/i,
  leadership: /\b(?:my team|direct reports?|delegat(?:e|ing|ion)|lead(?:ing|ership)?|manag(?:e|ing) (?:people|a team|my team)|new manager|first-time manager|mentor(?:ing)?|hir(?:e|ing)|onboard(?:ing)?)\b/i,
  career: /\b(?:career|promotion|promoted|next role|new role|new job|job offer|interviews?|job search|growth plan|development plan|skills?)\b/i,
  priorities: /\b(?:priorit(?:y|ies|ise|ize|ising|izing)|workload|deadlines?|time management|too much on my plate|focus|procrastinat(?:e|ing|ion)|calendar)\b/i,
  relationships: /\b(?:stakeholders?|colleagues?|co-?workers?|peers?|my (?:boss|manager|lead)|conflicts?|disagree(?:ment|ments)?|tension|trust|collaborat(?:e|ing|ion))\b/i,
  decisions: /\b(?:decid(?:e|ing)|decisions?|choices?|options|trade-?offs?|weigh(?:ing)? up|pros and cons)\b/i,
};

const frameworkOfId: Record<string, CoachingFramework> = { grow: 'grow', smart: 'smart', okr: 'okr', feedback: 'feedback', agenda: 'agenda', email: 'email' };

export type TopicLabels = { frameworks: CoachingFramework[]; themes: CoachingTheme[] };

/**
 * The labels of one user turn. `answeredBySafety`: the safety line answered or referred it (the
 * turn is outside coaching, or beside it): no theme.
 */
export function topicLabelsOf(text: string, options: { answeredBySafety?: boolean } = {}): TopicLabels {
  const bounded = text.slice(0, inputMax);
  const id = frameworkIn(bounded);
  const frameworks = id && frameworkOfId[id] ? [frameworkOfId[id]] : [];
  if (options.answeredBySafety || isSensitive(bounded)) return { frameworks, themes: [] };
  const themes = coachingThemes.filter((theme) => themePatterns[theme].test(bounded));
  return { frameworks, themes };
}

/** The labels as the bit sets coaching_activity keeps. */
export function labelBits(labels: TopicLabels): { frameworks: number; themes: number } {
  return {
    frameworks: labels.frameworks.reduce((bits, label) => bits | labelBit(coachingFrameworks, label), 0),
    themes: labels.themes.reduce((bits, label) => bits | labelBit(coachingThemes, label), 0),
  };
}
