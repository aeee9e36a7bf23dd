// The coach's reply spoken sentence by sentence while it is written: each sentence's
// speech is requested as soon as the sentence is complete, as raw 24 kHz 16-bit PCM, and played
// through Web Audio as its bytes arrive, not after the whole file. The reply's first words go
// sooner: its first clause, or its first few words when the first sentence is longer, so the
// first sound waits for a few tokens rather than a sentence (later chunks stay whole sentences,
// which sound natural). Interrupting stops every sound at once and tells how much was heard.

const pcmRate = 24_000;

type Sentence = { text: string; start: number; duration: number; done: boolean };

export type SpeechEvents = {
  /** The first sound of the reply started (the benchmark's mark). */
  onFirstAudio?: () => void;
  onError?: (error: unknown) => void;
};

export class StreamedSpeech {
  private readonly sentences: Sentence[] = [];
  private readonly sources = new Set<AudioBufferSourceNode>();
  private readonly controller = new AbortController();
  private chain: Promise<void> = Promise.resolve();
  private nextTime = 0;
  private pending = '';
  private started = false;
  private stopped = false;
  private finishedWriting = false;
  private idle: () => void = () => {};
  /** Resolves when everything written has been played (or the speech was stopped). */
  readonly played: Promise<void>;

  constructor(
    private readonly context: AudioContext,
    private readonly output: AudioNode,
    private readonly fetchSpeech: (text: string, signal: AbortSignal) => Promise<Response>,
    private readonly events: SpeechEvents = {},
  ) {
    this.played = new Promise((resolve) => (this.idle = resolve));
  }

  /** Text as the model writes it: each complete sentence (the first clause first) is sent to be spoken at once. */
  write(text: string) {
    this.pending += text;
    for (;;) {
      const end = this.sentences.length ? sentenceEnd(this.pending) : firstChunkEnd(this.pending);
      if (end < 0) break;
      this.speak(this.pending.slice(0, end));
      this.pending = this.pending.slice(end);
    }
  }

  /** The reply is complete: the rest is spoken too. */
  end() {
    if (this.pending.trim()) this.speak(this.pending);
    this.pending = '';
    this.finishedWriting = true;
    void this.chain.then(() => this.settle());
  }

  /**
   * Stops at once (the user started speaking). Answers what was heard: whole sentences played,
   * and of the one playing, its words in proportion to the time it played.
   */
  stop(): string {
    const now = this.context.currentTime;
    this.stopped = true;
    this.controller.abort();
    for (const source of this.sources) {
      try {
        source.stop();
      } catch {
        // not started yet
      }
    }
    this.sources.clear();
    const heard: string[] = [];
    for (const sentence of this.sentences) {
      if (!sentence.duration || sentence.start >= now) break;
      const played = Math.min(1, (now - sentence.start) / sentence.duration);
      if (played >= 1 && sentence.done) {
        heard.push(sentence.text.trim());
        continue;
      }
      const words = sentence.text.trim().split(/\s+/);
      const count = Math.floor(words.length * played);
      if (count > 0) heard.push(words.slice(0, count).join(' '));
      break;
    }
    this.idle();
    return heard.join(' ');
  }

  private speak(text: string) {
    if (!text.trim() || this.stopped) return;
    const sentence: Sentence = { text, start: 0, duration: 0, done: false };
    this.sentences.push(sentence);
    // Requested now; played after the sentence before it.
    const response = this.fetchSpeech(text.trim(), this.controller.signal);
    response.catch(() => {});
    this.chain = this.chain.then(() => this.play(sentence, response)).catch((error: unknown) => {
      if (!this.stopped) this.events.onError?.(error);
    });
  }

  private async play(sentence: Sentence, pending: Promise<Response>) {
    if (this.stopped) return;
    const response = await pending;
    if (!response.ok || !response.body) throw new Error(`speech failed: ${response.status}`);
    const reader = response.body.getReader();
    let carry: number | null = null;
    for (;;) {
      const { done, value } = await reader.read();
      if (done || this.stopped) break;
      let bytes = value;
      if (carry !== null) {
        const joined = new Uint8Array(bytes.length + 1);
        joined[0] = carry;
        joined.set(bytes, 1);
        bytes = joined;
        carry = null;
      }
      if (bytes.length % 2) {
        carry = bytes[bytes.length - 1]!;
        bytes = bytes.subarray(0, bytes.length - 1);
      }
      if (bytes.length) this.schedule(sentence, bytes);
    }
    sentence.done = true;
  }

  private schedule(sentence: Sentence, bytes: Uint8Array) {
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    const frames = bytes.byteLength / 2;
    const buffer = this.context.createBuffer(1, frames, pcmRate);
    const channel = buffer.getChannelData(0);
    for (let i = 0; i < frames; i++) channel[i] = view.getInt16(i * 2, true) / 32768;
    const source = this.context.createBufferSource();
    source.buffer = buffer;
    source.connect(this.output);
    const at = Math.max(this.context.currentTime + 0.01, this.nextTime);
    if (!sentence.duration) sentence.start = at;
    sentence.duration += buffer.duration;
    this.nextTime = at + buffer.duration;
    source.start(at);
    this.sources.add(source);
    source.onended = () => {
      this.sources.delete(source);
      if (this.finishedWriting && this.sources.size === 0) void this.chain.then(() => this.settle());
    };
    if (!this.started) {
      this.started = true;
      this.events.onFirstAudio?.();
    }
  }

  private settle() {
    if (this.sources.size === 0 && this.context.currentTime >= this.nextTime - 0.05) this.idle();
  }
}

/** Words the first chunk does not end on: it would sound cut off ('Start by naming the'). */
const joiningWords = new Set(['a', 'an', 'the', 'to', 'of', 'by', 'for', 'and', 'or', 'but', 'with', 'in', 'on', 'at', 'from', 'as', 'if', 'so', 'that', 'your', 'my', 'our', 'their', 'its', 'is', 'are', 'be', 'i', "i'm", 'you', 'we', 'it', 'this', 'not']);

/**
 * Where the first chunk of a reply to speak ends, or -1: its first sentence, or sooner its first
 * clause (a comma, semicolon, colon or dash after at least `minWords` words), or its first
 * `maxWords` complete words (more when the last would be a joining word such as 'the').
 */
export function firstChunkEnd(text: string, minWords = 2, maxWords = 3): number {
  const sentence = sentenceEnd(text);
  const limit = sentence < 0 ? text.length : sentence;
  let words = 0;
  let i = 0;
  while (i < limit) {
    while (i < limit && text[i]!.trim() === '') i++;
    const start = i;
    while (i < limit && text[i]!.trim() !== '') i++;
    if (i === start || i >= text.length || text[i]!.trim() !== '') break; // the word is still being written
    words++;
    const word = text.slice(start, i);
    let after = i;
    while (after < text.length && text[after]!.trim() === '') after++;
    if (words >= minWords && /[,;:—–]$/.test(word)) return after;
    if (words >= maxWords && !joiningWords.has(word.toLowerCase().replace(/[^\p{L}']/gu, ''))) return after;
  }
  return sentence;
}

/**
 * Where the first complete sentence of `text` ends (after its closing punctuation, quotes and the
 * whitespace that follows), or -1. One pass over the text: a regex search for it retried every
 * start position over a long run of punctuation (no super-linear regex on input).
 */
export function sentenceEnd(text: string): number {
  const stops = '.!?…';
  const closers = `"')]`;
  const space = (ch: string | undefined) => ch !== undefined && ch.trim() === '';
  let i = 0;
  while (i < text.length) {
    if (!stops.includes(text[i]!)) {
      i++;
      continue;
    }
    let j = i;
    while (j < text.length && stops.includes(text[j]!)) j++;
    while (j < text.length && closers.includes(text[j]!)) j++;
    if (space(text[j])) {
      while (space(text[j])) j++;
      return j;
    }
    i = j;
  }
  return -1;
}
