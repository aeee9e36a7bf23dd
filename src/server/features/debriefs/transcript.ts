import webvtt, { type WebVTTNode } from 'webvtt-parser';

// A Teams transcript's WebVTT as cues: who spoke (the cue's voice span, `<v Name>`), from when to
// when, and what they said. Read with the W3C's own WebVTT parser (the one behind its validator),
// which follows the spec's parsing rules for timestamps, cue settings and the cue text's tags.

export type Cue = { start: number; end: number; speaker: string; text: string };

export class TranscriptUnreadable extends Error {}

// The parser's default character references lack their ';' ('&amp'), so '&amp;' comes out as '&;'
// (its lookup adds the ';' it just read): the references WebVTT defines, with and without it.
const references: Record<string, string> = Object.fromEntries(
  Object.entries({ '&amp': '&', '&lt': '<', '&gt': '>', '&lrm': '\u200e', '&rlm': '\u200f', '&nbsp': '\u00a0' }).flatMap(([name, value]) => [
    [name, value],
    [`${name};`, value],
  ]),
);

function textOf(nodes: WebVTTNode[]): string {
  return nodes.map((node) => (node.type === 'text' ? node.value : textOf(node.children))).join('');
}

function voiceOf(nodes: WebVTTNode[]): string | null {
  for (const node of nodes) {
    if (node.type !== 'object') continue;
    if (node.name === 'v' && node.value?.trim()) return node.value.trim();
    const inner = voiceOf(node.children);
    if (inner) return inner;
  }
  return null;
}

/**
 * The cues of a transcript, in order of their start, each with its speaker and its text on one
 * line. A file that is not WebVTT at all is refused; a cue without a voice span is 'Unknown'
 * (Teams names every speaker it could tell apart), an empty cue is left out.
 */
export function parseTranscript(vtt: string, offsetSeconds = 0): Cue[] {
  if (!/^\uFEFF?WEBVTT(?:[ \t]|\r?\n|$)/.test(vtt)) throw new TranscriptUnreadable('not a WebVTT file');
  const parsed = new webvtt.WebVTTParser(references).parse(vtt, 'metadata');
  const cues: Cue[] = [];
  for (const cue of parsed.cues) {
    const text = textOf(cue.tree.children).replace(/\s+/g, ' ').trim();
    if (!text || !(cue.endTime >= cue.startTime)) continue;
    cues.push({ start: cue.startTime + offsetSeconds, end: cue.endTime + offsetSeconds, speaker: voiceOf(cue.tree.children) ?? 'Unknown', text });
  }
  return cues.sort((a, b) => a.start - b.start || a.end - b.end);
}

/** A time from the transcript's start as a person reads it: 4:05, or 1:02:09 past the hour. */
export function clockOf(seconds: number): string {
  const whole = Math.max(0, Math.floor(seconds));
  const h = Math.floor(whole / 3600);
  const m = Math.floor((whole % 3600) / 60);
  const s = String(whole % 60).padStart(2, '0');
  return h ? `${h}:${String(m).padStart(2, '0')}:${s}` : `${m}:${s}`;
}
