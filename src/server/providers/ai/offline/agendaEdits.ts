import type { ChatTurn } from '../contract.js';
import { capitalize, clause, lengthPhrase, minutesIn } from './language.js';
import { byName } from './scope.js';
import type { CoachScope } from './types.js';

// "Modify the agenda" asks the coach to change the agenda it last wrote, not to plan a new one.
// The conversation is all that is stored, so the agenda is read back from the coach's reply (its
// bold title and its numbered "N. Topic (M min)" lines), changed as asked, and written out again
// in the same shape, so that the next change, and the agenda buttons, work on the new one.

export type AgendaItem = { title: string; minutes: number };
export type WrittenAgenda = { title: string; minutes: number; items: AgendaItem[] };

// Read with fixed, anchored pieces and string slices: a pattern with a lazy title between two
// runs of spaces backtracked polynomially on a long line (test/server/redos.test.ts).
const itemNumber = /^\d{1,2}\. /;
const itemMinutes = / \((\d{1,3}) min\)$/;

function itemOf(line: string): AgendaItem | null {
  const flat = line.trim();
  const number = itemNumber.exec(flat);
  const minutes = itemMinutes.exec(flat);
  if (!number || !minutes) return null;
  const title = flat.slice(number[0].length, flat.length - minutes[0].length).trim();
  return title ? { title, minutes: Number(minutes[1]) } : null;
}

/** The agenda a reply holds, or null when it has no timed numbered lines. */
export function agendaIn(reply: string): WrittenAgenda | null {
  const items = reply
    .split('\n')
    .map(itemOf)
    .filter((item): item is AgendaItem => item !== null);
  if (items.length < 2) return null;
  const title = /\*\*(.{1,200}?)\*\*/.exec(reply)?.[1]?.trim() || 'Your meeting';
  // The meeting's stated length ("45 minutes" in the first line), else the items' sum.
  const stated = minutesIn(reply.split('\n')[0] ?? '');
  const sum = items.reduce((total, item) => total + item.minutes, 0);
  return { title, minutes: stated && stated >= 5 && stated <= 480 ? stated : sum, items };
}

/** The agenda in the coach's last reply that has one, or null. */
export function lastAgenda(conversation: ChatTurn[]): WrittenAgenda | null {
  for (let i = conversation.length - 1; i >= 0; i--) {
    const turn = conversation[i]!;
    if (turn.role !== 'assistant') continue;
    const agenda = agendaIn(turn.content);
    if (agenda) return agenda;
  }
  return null;
}

const modifyRequest = /^\s*(?:please\s+)?(?:modify|change|edit|revise|update|adjust|rework|tweak|amend)\s+(?:the|this|my|our)\s+agenda\b[\s:,.-]*/i;
const editVerb = /^\s*(?:please\s+)?(?:can you\s+|could you\s+)?(?:add|include|remove|drop|delete|cut|skip|take out|move|put|rename|replace|swap|make it|shorten|extend)\b/i;

/**
 * The change a message asks of the agenda, or null when it is not one: "Please modify the agenda: …"
 * (the button's words) always is; a bare "add …", "move … first" only right after an agenda.
 */
export function agendaEditRequest(message: string, lastReply: string): string | null {
  const prefixed = modifyRequest.exec(message);
  if (prefixed) return message.slice(prefixed[0].length).trim();
  if (editVerb.test(message) && agendaIn(lastReply)) return message.trim();
  return null;
}

const opening = /^welcome\b/i;
const closing = /^decisions?\b|^decide\b/i;

const words = (text: string) => text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];

/** The item a phrase names: the most words in common (an exact or contained title first). */
function findItem(items: AgendaItem[], phrase: string): number {
  const wanted = clause(phrase).replace(/^(?:the|an?)\s+/i, '').toLowerCase();
  if (!wanted) return -1;
  const exact = items.findIndex((item) => item.title.toLowerCase() === wanted);
  if (exact >= 0) return exact;
  const contained = items.findIndex((item) => item.title.toLowerCase().includes(wanted));
  if (contained >= 0) return contained;
  const asked = new Set(words(wanted).filter((w) => w.length > 2));
  let best = -1;
  let bestScore = 0;
  items.forEach((item, i) => {
    const score = words(item.title).filter((w) => asked.has(w)).length;
    if (score > bestScore) {
      best = i;
      bestScore = score;
    }
  });
  return best;
}

/** Where new topics go: after the opening, before the closing. */
function middleRange(items: AgendaItem[]): { first: number; end: number } {
  const first = items[0] && opening.test(items[0].title) ? 1 : 0;
  const last = items.at(-1);
  const end = last && closing.test(last.title) && items.length > first ? items.length - 1 : items.length;
  return { first, end };
}

/** The time boxes again after topics came or went: the opening and closing keep theirs, the rest share what is left. */
function retime(items: AgendaItem[], total: number): AgendaItem[] {
  const { first, end } = middleRange(items);
  const fixed = items.slice(0, first).concat(items.slice(end)).reduce((sum, item) => sum + item.minutes, 0);
  const count = end - first;
  if (count <= 0) return items;
  const room = Math.max(count * 2, total - fixed);
  const base = Math.floor(room / count);
  const extra = room - base * count;
  return items.map((item, i) => (i < first || i >= end ? item : { ...item, minutes: base + (i - first < extra ? 1 : 0) }));
}

/** A new length: every time box scaled, rounded, the sum kept to the new length. */
function rescale(items: AgendaItem[], from: number, to: number): AgendaItem[] {
  const scaled = items.map((item) => ({ ...item, minutes: Math.max(1, Math.round((item.minutes * to) / Math.max(from, 1))) }));
  const sum = scaled.reduce((total, item) => total + item.minutes, 0);
  const { first, end } = middleRange(scaled);
  const target = end > first ? first : 0;
  scaled[target] = { ...scaled[target]!, minutes: Math.max(1, scaled[target]!.minutes + to - sum) };
  return scaled;
}

/** A topic as an agenda line: its own capitals kept, the first letter made a capital. */
function topic(text: string): string {
  return capitalize(clause(text.replace(/^(?:a|an)\s+(?:slot|item|point)\s+(?:for|on|about)\s+/i, '').replace(/^["“'‘]|["”'’]$/g, '')));
}

type Applied = { agenda: WrittenAgenda; done: string[] };

const maxItems = 7;

/** The rest of `text` after one of the verbs (and a space), or null; compared without regexes. */
function afterVerb(text: string, verbs: string[]): string | null {
  const lower = text.toLowerCase();
  const verb = verbs.find((v) => lower.startsWith(`${v} `));
  return verb ? text.slice(verb.length + 1).trim() : null;
}

/** `text` split at the first of the words (with a space each side): before, the word, after; or null. */
function splitAt(text: string, separators: string[]): { before: string; word: string; after: string } | null {
  const lower = text.toLowerCase();
  let best: { at: number; word: string } | null = null;
  for (const word of separators) {
    const at = lower.indexOf(` ${word} `);
    if (at > 0 && (!best || at < best.at)) best = { at, word };
  }
  if (!best) return null;
  return { before: text.slice(0, best.at).trim(), word: best.word, after: text.slice(best.at + best.word.length + 2).trim() };
}

/** `text` without one of the endings (after a space), and the ending; or the text and null. */
function withoutEnding(text: string, endings: string[]): { rest: string; ending: string | null } {
  const lower = text.toLowerCase();
  const ending = endings.find((e) => lower.endsWith(` ${e}`));
  return ending ? { rest: text.slice(0, text.length - ending.length - 1).trim(), ending } : { rest: text, ending: null };
}

const toStart = ['first', 'to the top', 'to the start', 'to the beginning', 'at the top', 'at the start', 'at the beginning'];
const toEnd = ['last', 'to the end', 'at the end'];

/** One change ("add X", "remove X", "move X first", "rename X to Y", "make it 30 minutes"), or null when not understood. */
function applyOne(agenda: WrittenAgenda, change: string): Applied | null {
  const items = [...agenda.items];
  const text = clause(change).replace(/^(?:please|and|then|also) /i, '');

  const renaming = afterVerb(text, ['rename', 'change', 'replace']);
  const renamedParts = renaming === null ? null : splitAt(renaming, ['to', 'with', 'into', 'by']);
  if (renamedParts) {
    const at = findItem(items, renamedParts.before);
    if (at < 0) return null;
    const renamed = topic(renamedParts.after);
    const done = `“${items[at]!.title}” is now “${renamed}”`;
    items[at] = { ...items[at]!, title: renamed };
    return { agenda: { ...agenda, items }, done: [done] };
  }
  const length = afterVerb(text, ['make it', 'make the meeting', 'shorten it to', 'extend it to', 'cut it to', 'it is', "it's"]);
  const newLength = length === null ? null : minutesIn(length);
  if (newLength) {
    const to = Math.min(480, Math.max(5, newLength));
    return { agenda: { ...agenda, minutes: to, items: rescale(items, agenda.minutes, to) }, done: [`it now takes ${lengthPhrase(to)}`] };
  }
  const removal = afterVerb(text, ['remove', 'drop', 'delete', 'cut', 'skip', 'take out']);
  if (removal) {
    const at = findItem(items, removal);
    if (at < 0 || items.length <= 2) return null;
    const [removed] = items.splice(at, 1);
    return { agenda: { ...agenda, items: retime(items, agenda.minutes) }, done: [`“${removed!.title}” is out`] };
  }
  const addition = afterVerb(text, ['add', 'include', 'put in', 'fit in']);
  if (addition) {
    const { rest, ending } = withoutEnding(addition, [...toStart, ...toEnd]);
    const titles = rest.split(/,| and (?=[A-Z])/).map(topic).filter(Boolean);
    if (!titles.length) return null;
    const { first, end } = middleRange(items);
    const at = ending && toStart.includes(ending) ? first : end;
    items.splice(at, 0, ...titles.map((title) => ({ title, minutes: 0 })));
    return { agenda: { ...agenda, items: retime(items, agenda.minutes) }, done: titles.map((t) => `“${t}” is in`) };
  }
  const move = afterVerb(text, ['move', 'put']);
  if (move) {
    const relative = splitAt(move, ['before', 'after']);
    const { rest, ending } = withoutEnding(move, [...toStart, ...toEnd, 'earlier', 'up', 'later', 'down']);
    const at = findItem(items, relative ? relative.before : rest);
    if (at < 0 || (!relative && !ending)) return null;
    const [moved] = items.splice(at, 1);
    const { first, end } = middleRange(items);
    let to: number;
    if (relative) {
      const other = findItem(items, relative.after);
      if (other < 0) return null;
      to = relative.word === 'before' ? other : other + 1;
    } else if (toStart.includes(ending!)) to = first;
    else if (toEnd.includes(ending!)) to = end;
    else if (ending === 'earlier' || ending === 'up') to = Math.max(first, at - 1);
    else to = Math.min(end, at + 1);
    items.splice(to, 0, moved!);
    return { agenda: { ...agenda, items }, done: [`“${moved!.title}” is now item ${to + 1}`] };
  }
  return null;
}

/** Every change a request names, in order; the ones not understood are returned as they were said. */
export function applyEdits(agenda: WrittenAgenda, request: string): { agenda: WrittenAgenda; done: string[]; unclear: string[] } {
  const changes = request
    .split(/[;\n]|\. /)
    .flatMap((part) => part.split(' and then '))
    .flatMap((part) => part.split(', then '))
    .map((c) => c.trim())
    .filter(Boolean);
  let current = agenda;
  const done: string[] = [];
  const unclear: string[] = [];
  for (const change of changes) {
    const applied = applyOne(current, change);
    if (applied && applied.agenda.items.length <= maxItems) {
      current = applied.agenda;
      done.push(...applied.done);
    } else unclear.push(clause(change));
  }
  return { agenda: current, done, unclear };
}

const examples = '“add Budget for Q1”, “remove Options and open questions”, “move Hiring plan first”, “rename Wins to Team wins” or “make it 30 minutes”';

/** The reply to a change of the agenda: the agenda again, changed, in the shape it was written in. */
export function agendaEditReply(agenda: WrittenAgenda, request: string, scope: CoachScope): string {
  const { agenda: changed, done, unclear } = applyEdits(agenda, request);
  const lines = changed.items.map((item, i) => `${i + 1}. ${item.title} (${item.minutes} min)`);
  const heading = done.length
    ? `Here is the agenda for **${changed.title}** with your change${done.length > 1 ? 's' : ''}${byName(scope)} (${changed.minutes} minutes): ${done.join('; ')}.`
    : `Here is the agenda for **${changed.title}** as it stands${byName(scope)} (${changed.minutes} minutes).`;
  const after = unclear.length
    ? `I could not work out the change in ${unclear.map((u) => `“${u}”`).join(' and ')}. Tell me one change at a time, for example ${examples}.`
    : done.length
      ? 'When it is right, save it to the invite or email it to everyone. Anything else to change?'
      : `What would you like to change? For example ${examples}.`;
  return [heading, '', ...lines, '', after].join('\n');
}
