import type { GoalFramework } from './schemas/goals.js';
import { trimEndChars } from './trimText.js';

// 'Save as goal': a coach reply that holds the result of a SMART, OKR or GROW
// conversation becomes a goal draft: framework, title, due date and key results with a start, a
// target and a unit where the text says them. Both coaches write their results in this shape
// (the offline coach's finish() in src/server/providers/ai/offline/frameworks/, and the model
// is asked to in the coach's system context). Pure: the client shows the button and prefills the
// form with it; the user can correct anything before saving.

export type GoalDraft = {
  framework: GoalFramework;
  title: string;
  dueDate: string;
  keyResults: Array<{ title: string; start: number; target: number; unit: string }>;
};

const dayMs = 24 * 60 * 60 * 1000;
const maxTitle = 200;
const months = ['january', 'february', 'march', 'april', 'may', 'june', 'july', 'august', 'september', 'october', 'november', 'december'];

export function goalDraftFromReply(text: string, today = new Date()): GoalDraft | null {
  const smart = /Here is your SMART goal[^\n:]{0,200}:[ \t]*\n\s*>[ \t]*\*\*([^*\n]+)\*\*/i.exec(text);
  if (smart) {
    const statement = smart[1]!.trim().replace(/\.$/, '');
    const measured = [...statement.matchAll(/\(([^()]*)\)/g)].map((m) => m[1]!).find((inside) => /\d/.test(inside));
    return {
      framework: 'SMART',
      title: cut(statement),
      dueDate: dueDateIn(statement, today) ?? inDays(today, 90),
      keyResults: [keyResultFrom(measured ?? statement, cut(cutAtFirst(statement.replace(/\([^()]*\)/, '').replace(/\s+/g, ' '), / (?:by|before|within|until) /i).trim()))],
    };
  }
  // 'Here is an OKR draft' when some key results are the coach's suggestions (marked as such).
  const okr = /Here (?:are your OKRs|is an OKR draft)([^\n:]{0,200}):/i.exec(text);
  if (okr) {
    const objective = /\*\*Objective:\*\*\s*(.+)/i.exec(text)?.[1]?.trim();
    if (!objective) return null;
    const list = text.slice(text.search(/\*\*Key results:\*\*/i) + 1);
    const keyResults = [...list.matchAll(/^[ \t]*\d{1,3}\.[ \t]+(\S.*)$/gm)]
      .map((m) => withoutSuffix(withoutSuffix(m[1]!.trim(), "(the coach's suggestion)").trim(), '(add a target number)').trim())
      .filter((kr) => kr && kr !== '(not answered)')
      .slice(0, 10)
      .map((kr) => keyResultFrom(kr, cut(kr)));
    return { framework: 'OKR', title: cut(objective.replace(/\.$/, '')), dueDate: dueDateIn(okr[1] ?? '', today) ?? inDays(today, 90), keyResults };
  }
  const grow = /Here is your GROW summary/i.exec(text);
  if (grow) {
    const goal = /\*\*Goal:\*\*\s*(.+)/i.exec(text)?.[1]?.trim();
    if (!goal || goal === '(not answered)') return null;
    const next = /\*\*Next action:\*\*\s*(.+)/i.exec(text)?.[1]?.trim().replace(/\.$/, '');
    const will = /\*\*Will:\*\*\s*(.+)/i.exec(text)?.[1]?.trim() ?? '';
    const hasAction = next && !/^Pick one option/i.test(next);
    return {
      framework: 'GROW',
      title: cut(goal.replace(/\.$/, '')),
      dueDate: dueDateIn(`${will} ${goal}`, today) ?? inDays(today, 90),
      keyResults: hasAction ? [{ title: cut(next), start: 0, target: 1, unit: 'done' }] : [],
    };
  }
  return null;
}

/**
 * A start, a target and a unit from the way people write a measure: 'from 6 to 3 weeks',
 * 'raise activation from 40% to 60%', '40 → 60 NPS', '+15%', '3 demos a month', 'reach 60%'.
 * Without a number: 0 to 1, for the user to fill in.
 */
export function keyResultFrom(text: string, title: string): GoalDraft['keyResults'][number] {
  const number = String.raw`(-?\d+(?:[.,]\d+)?)`;
  const range = new RegExp(`${number}\\s*(%|[a-z/]+)?\\s*(?:to|→|->|–)\\s*${number}\\s*(%|[a-z][a-z0-9/ ]{0,30})?`, 'i').exec(text);
  if (range) {
    const unit = (range[4] ?? range[2] ?? '').trim();
    return { title, start: toNumber(range[1]!), target: toNumber(range[3]!), unit: cleanUnit(unit) };
  }
  const delta = new RegExp(`\\+\\s?${number}\\s*(%|[a-z][a-z0-9/ ]{0,30})?`, 'i').exec(text);
  if (delta) return { title, start: 0, target: toNumber(delta[1]!), unit: cleanUnit(delta[2] ?? '') };
  const single = new RegExp(`${number}\\s*(%|[a-z][a-z0-9/ ]{0,30})?`, 'i').exec(text);
  if (single && toNumber(single[1]!) !== 0) return { title, start: 0, target: toNumber(single[1]!), unit: cleanUnit(single[2] ?? '') };
  return { title, start: 0, target: 1, unit: '' };
}

/** A due date from 'by the end of Q3', 'Q1 2027', 'by 30 June', 'by March', 'within 8 weeks', '2027-02-15'. */
export function dueDateIn(text: string, today: Date): string | null {
  const iso = /\b(\d{4})-(\d{2})-(\d{2})\b/.exec(text);
  if (iso) return iso[0];
  const quarter = /\bQ([1-4])(?:\s*(\d{4}))?\b/i.exec(text);
  if (quarter) {
    const q = Number(quarter[1]);
    let year = quarter[2] ? Number(quarter[2]) : today.getUTCFullYear();
    const end = () => isoDate(new Date(Date.UTC(year, q * 3, 0)));
    if (!quarter[2] && end() < isoDate(today)) year += 1;
    return end();
  }
  const within = /\b(?:within|in)\s+(\d+|a|one|two|three|four|six|eight|twelve)\s+(day|week|month)s?\b/i.exec(text);
  if (within) {
    const words: Record<string, number> = { a: 1, one: 1, two: 2, three: 3, four: 4, six: 6, eight: 8, twelve: 12 };
    const count = Number(within[1]) || words[within[1]!.toLowerCase()] || 1;
    const unit = within[2]!.toLowerCase();
    return inDays(today, count * (unit === 'day' ? 1 : unit === 'week' ? 7 : 30));
  }
  const dayMonth = new RegExp(`\\b(\\d{1,2})(?:st|nd|rd|th)?\\s+(${months.join('|')}|${months.map((m) => m.slice(0, 3)).join('|')})\\b(?:\\s+(\\d{4}))?`, 'i').exec(text);
  const monthDay = new RegExp(`\\b(${months.join('|')}|${months.map((m) => m.slice(0, 3)).join('|')})\\s+(\\d{1,2})(?:st|nd|rd|th)?\\b(?:,?\\s+(\\d{4}))?`, 'i').exec(text);
  const explicit = dayMonth ? { day: Number(dayMonth[1]), month: dayMonth[2]!, year: dayMonth[3] } : monthDay ? { day: Number(monthDay[2]), month: monthDay[1]!, year: monthDay[3] } : null;
  if (explicit) return nextDate(today, monthIndex(explicit.month), explicit.day, explicit.year);
  const monthOnly = new RegExp(`\\b(?:by|in|before|end of|until)\\s+(?:the end of\\s+)?(${months.join('|')})\\b(?:\\s+(\\d{4}))?`, 'i').exec(text);
  if (monthOnly) {
    const month = monthIndex(monthOnly[1]!);
    return nextDate(today, month, new Date(Date.UTC(2001, month + 1, 0)).getUTCDate(), monthOnly[2]);
  }
  if (/\bend of (?:the )?year\b/i.test(text)) return `${today.getUTCFullYear()}-12-31`;
  if (/\bnext quarter\b/i.test(text)) {
    const q = Math.floor(today.getUTCMonth() / 3) + 1;
    return isoDate(new Date(Date.UTC(today.getUTCFullYear(), (q + 1) * 3, 0)));
  }
  if (/\bthis quarter\b/i.test(text)) {
    const q = Math.floor(today.getUTCMonth() / 3) + 1;
    return isoDate(new Date(Date.UTC(today.getUTCFullYear(), q * 3, 0)));
  }
  return null;
}

function nextDate(today: Date, month: number, day: number, year?: string): string {
  let y = year ? Number(year) : today.getUTCFullYear();
  const candidate = () => isoDate(new Date(Date.UTC(y, month, Math.min(day, new Date(Date.UTC(y, month + 1, 0)).getUTCDate()))));
  if (!year && candidate() < isoDate(today)) y += 1;
  return candidate();
}

function monthIndex(name: string): number {
  return months.findIndex((m) => m.startsWith(name.toLowerCase().slice(0, 3)));
}

function inDays(today: Date, days: number): string {
  return isoDate(new Date(today.getTime() + days * dayMs));
}

function isoDate(date: Date): string {
  return date.toISOString().slice(0, 10);
}

function toNumber(text: string): number {
  return Number(text.replace(',', '.'));
}

function cleanUnit(unit: string): string {
  const trimmed = trimEndChars(cutAtFirst(unit.trim(), /\s(?:by|before|within|until|in|for)\b/i).trimEnd(), '.,;:');
  return trimmed.slice(0, 40);
}

function cut(text: string): string {
  const clean = text.replace(/\*\*/g, '').trim();
  return clean.length <= maxTitle ? clean : `${clean.slice(0, maxTitle - 1)}…`;
}

/** `text` up to the first match of `pattern` (all of it when there is none). */
function cutAtFirst(text: string, pattern: RegExp): string {
  const found = pattern.exec(text);
  return found ? text.slice(0, found.index) : text;
}

/** `text` without `suffix` (any case) at its end. */
function withoutSuffix(text: string, suffix: string): string {
  return text.toLowerCase().endsWith(suffix) ? text.slice(0, text.length - suffix.length) : text;
}
