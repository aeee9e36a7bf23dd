import { voiceTexts } from '../../../shared/texts';
import type { SpeechEvents } from './streamedSpeech';
import type { VoiceActivityOptions } from './voiceActivity';
import { VoiceRequestError } from './voiceApi';

// The browser voice call of the product spec's states and transitions, streamed and interruptible,
// as a plain object with no React: `useVoiceCall` is a thin hook over it,
// and its tests drive it with fakes of what it talks to (the microphone and its voice activity,
// the call's audio, the turn's requests, the clock, the toasts).
//
// Connecting, then active once the microphone is granted (disconnected on denial). The microphone
// listens the whole call, the coach speaking or not. A turn ends after `silenceMs` of silence; it
// is transcribed, and the coach's reply is shown and spoken sentence by sentence while it is
// written. Speaking while the coach speaks stops the coach at once and starts a new turn; what was
// heard of the reply is what the chat keeps.
//
// The reply starts speculatively (the voice latency budget, docs/performance.md): at a short pause (`pauseMs`) the
// recording so far is transcribed and the reply requested as a provisional turn. If the user goes
// on speaking before the turn ends, that attempt is aborted (its requests cancelled, nothing shown,
// played or stored); when the turn does end, the attempt becomes the turn: its reply, usually
// already on its way, is shown and played from then on (never over the user), and saved through
// POST /api/voice/keep.

export type CallStatus = 'idle' | 'connecting' | 'active' | 'disconnected' | 'ended';
export type TurnPhase = 'listening' | 'recording' | 'processing' | 'speaking';

/** What the call dialog shows; a new object on every change (a `useSyncExternalStore` snapshot). */
export type VoiceCallState = {
  status: CallStatus;
  phase: TurnPhase;
  youSaid: string;
  coachSaid: string;
  seconds: number;
  endedAfter: number | null;
  muted: boolean;
  speakerOn: boolean;
  notice: string | null;
  /** The chat a call opened without one started (null while unknown, and for a call opened from a chat). */
  chatId: number | null;
};

export const autoStartMs = 1000;
export const summaryAfterSeconds = 30;
/** A recording nobody speaks into is started afresh, so it never grows without end. */
export const maxRecordingMs = 30_000;
/** How long a suspended audio output may take to start before the browser is taken to refuse it. */
export const playbackGraceMs = 1_000;
// A turn refused for the recording itself (malformed, too large, a type the server does not take).
const unprocessable = new Set([400, 413, 415, 422]);

export function formatDuration(seconds: number): string {
  return `${String(Math.floor(seconds / 60)).padStart(2, '0')}:${String(seconds % 60).padStart(2, '0')}`;
}

// ---- What the session talks to (the browser's in browserCallDevices.ts, fakes in its tests) ----

/** One recording of the microphone (a MediaRecorder in the browser), started when made. */
export interface CallRecording {
  /** What was recorded so far (the encoder flushed); the recording goes on. */
  snapshot(): Promise<Blob>;
  /** Stops the recording and answers all of it. */
  finish(): Promise<Blob>;
  /** Stops the recording; a snapshot already asked for still gets its audio. */
  stop(): void;
  /** Stops the recording and drops what it holds. */
  discard(): void;
}

/** The call's audio: the coach's speech plays through it, and the microphone's voice is watched through it. */
export interface CallAudio {
  /** Suspended while the browser's autoplay rules hold it. */
  readonly state: 'suspended' | 'running' | 'closed' | (string & {});
  resume(): Promise<void>;
  close(): Promise<void>;
  setSpeakerOn(on: boolean): void;
  /** Voice activity on the microphone; answers the function that stops watching. */
  watchVoice(options: VoiceActivityOptions): () => void;
  /** A reply spoken sentence by sentence as it is written (a StreamedSpeech in the browser). */
  speak(fetchSpeech: (text: string, signal: AbortSignal) => Promise<Response>, events: SpeechEvents): Speech;
}

/** The coach's reply being spoken. */
export interface Speech {
  write(text: string): void;
  end(): void;
  /** Stops at once; answers what was heard. */
  stop(): string;
  /** Resolves when all of it was played, or it was stopped. */
  readonly played: Promise<void>;
}

/** The microphone, once the user granted it. */
export interface Microphone {
  /** A new recording, started at once; throws when the browser cannot record. `onError`: it stopped recording. */
  record(onError: () => void): CallRecording;
  /** The call's audio on this microphone (made after the permission prompt, it may start suspended). */
  connectAudio(speakerOn: boolean): CallAudio;
  /** Gives the microphone back (its tracks stopped). */
  close(): void;
}

type TurnResult = { chatId: number | null; messageId: number | null; reply: string; keep?: string };

/** The turn's requests (voiceApi.ts in the browser). */
export type VoiceTurnRequests = {
  streamTurn: (
    input: { chatId: number | null; audio: Blob; provisional: boolean },
    handlers: { onToken: (text: string) => void; onTranscript: (text: string, allowance?: string) => void },
    signal: AbortSignal,
  ) => Promise<TurnResult>;
  keepTurn: (keep: string) => Promise<{ chatId: number | null; messageId: number | null }>;
  storeHeard: (messageId: number, heard: string) => Promise<void>;
  fetchSpeech: (text: string, signal: AbortSignal, allowance?: string) => Promise<Response>;
};

export type Clock = {
  now(): number;
  setTimeout(run: () => void, ms: number): number;
  clearTimeout(id: number): void;
  setInterval(run: () => void, ms: number): number;
  clearInterval(id: number): void;
};

export type VoiceCallDeps = {
  microphone: {
    /** The browser can record at all (getUserMedia and MediaRecorder). */
    supported(): boolean;
    /** Asks for the microphone; rejects when it is refused. */
    open(): Promise<Microphone>;
  };
  requests: VoiceTurnRequests;
  clock: Clock;
  /** The app's toasts (lib/notify). */
  notify: { error(title: string, message?: string): void; info(title: string, message?: string): void };
  /** A performance mark (bench:voice and the e2e tests read them). */
  mark(name: string, startTime?: number): void;
  /** A turn was saved in the chats (their list is fetched again). */
  chatsChanged(): void;
  /** Runs `run` on the next click anywhere on the page; answers the function that stops waiting. */
  onNextClick(run: () => void): () => void;
};

export type CallOptions = { chatId: number | null; silenceMs: number; pauseMs: number };

type Recording = { media: CallRecording; speech: boolean; limit: number };
type Turn = { speech: Speech; heard: string | null };
/**
 * One recording on its way to a reply: started at a pause (speculative) or at the end of a turn.
 * `decided` says whether the turn ended with it (true) or the user went on speaking (false).
 */
type Attempt = { recording: Recording; abort: AbortController; decided: Promise<boolean>; decide: (go: boolean) => void; ended: boolean; streaming: boolean };

function newAttempt(recording: Recording): Attempt {
  let decide: (go: boolean) => void = () => {};
  const decided = new Promise<boolean>((resolve) => (decide = resolve));
  const attempt: Attempt = {
    recording,
    abort: new AbortController(),
    decided,
    decide: (go) => {
      attempt.ended ||= go;
      decide(go);
    },
    ended: false,
    streaming: false,
  };
  return attempt;
}

const initialState: VoiceCallState = {
  status: 'idle',
  phase: 'listening',
  youSaid: '',
  coachSaid: '',
  seconds: 0,
  endedAfter: null,
  muted: false,
  speakerOn: true,
  notice: null,
  chatId: null,
};

/**
 * A browser voice call. `start({ chatId })` with the chat the call was opened from: its earlier
 * messages are the coach's context and the call's turns are saved into it. Without one, the first
 * turn starts a chat of its own. After `hangUp` or `release` it can be started again.
 */
export class VoiceCallSession {
  private state = initialState;
  private readonly listeners = new Set<() => void>();

  // Live values for the callbacks of the recorder, the voice activity and the player.
  private live = { muted: false, speakerOn: true, ended: true, chatId: null as number | null, hadSpeech: false, seconds: 0 };
  private microphone: Microphone | null = null;
  private audio: CallAudio | null = null;
  private recording: Recording | null = null;
  private stopWatching: (() => void) | null = null;
  private turn: Turn | null = null;
  // The turn before: the next one waits for it to be saved (it needs the call's chat).
  private previous: Promise<void> = Promise.resolve();
  // Recordings on their way to a reply, and the one started at the current pause (not yet decided).
  private readonly attempts = new Set<Attempt>();
  private speculation: Attempt | null = null;
  private clock: number | null = null;
  // The browser refused to play audio in this call: told once, sound allowed on the next click.
  private playbackBlocked: { stopWaiting: () => void } | null = null;

  constructor(private readonly deps: VoiceCallDeps) {}

  // ---- The store (useSyncExternalStore) ----

  readonly getSnapshot = (): VoiceCallState => this.state;

  readonly subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  private set(change: Partial<VoiceCallState>) {
    this.state = { ...this.state, ...change };
    for (const listener of this.listeners) listener();
  }

  // ---- The call ----

  readonly start = async ({ chatId, silenceMs, pauseMs }: CallOptions): Promise<void> => {
    const { deps } = this;
    this.release();
    this.live = { muted: false, speakerOn: this.live.speakerOn, ended: false, chatId, hadSpeech: false, seconds: 0 };
    this.previous = Promise.resolve();
    this.set({ status: 'connecting', notice: null, youSaid: '', coachSaid: '', seconds: 0, endedAfter: null, muted: false, chatId: null, phase: 'listening' });
    if (!deps.microphone.supported()) {
      deps.notify.error(voiceTexts.notSupportedTitle, voiceTexts.notSupported);
      return this.fail(voiceTexts.notSupported);
    }
    try {
      this.microphone = await deps.microphone.open();
    } catch {
      deps.notify.error(voiceTexts.micDeniedTitle, voiceTexts.micDenied);
      return this.fail(voiceTexts.micDenied);
    }
    if (this.live.ended) return this.release();
    const audio = this.microphone.connectAudio(this.live.speakerOn);
    this.audio = audio;
    // Created after the microphone prompt, the audio may be refused by the browser's autoplay rules.
    this.ensurePlayback();
    this.set({ status: 'active' });
    this.clock = deps.clock.setInterval(() => {
      this.live.seconds += 1;
      this.set({ seconds: this.live.seconds });
    }, 1000);
    this.record();
    // The pause that starts a speculative reply; 0 (or not below silenceMs) turns speculation off.
    const speculate = pauseMs > 0 && pauseMs < silenceMs;
    this.stopWatching = audio.watchVoice({
      silenceMs,
      pauseMs,
      onSpeechStart: this.speechStarted,
      onSpeechEnd: this.speechEnded,
      ...(speculate ? { onPause: this.speechPaused, onResume: this.speechResumed } : {}),
    });
  };

  readonly hangUp = (): void => {
    if (this.live.ended) return;
    this.live.ended = true;
    this.release();
    const duration = this.live.seconds;
    this.set({ endedAfter: duration, seconds: 0, status: 'ended' });
    if (duration > summaryAfterSeconds && this.live.hadSpeech) this.deps.notify.info(voiceTexts.summaryTitle, voiceTexts.summaryBody);
  };

  /** The dialog went away: everything of the call is let go (it may be started again). */
  readonly close = (): void => {
    this.live.ended = true;
    this.release();
  };

  readonly toggleMute = (): void => {
    const next = !this.live.muted;
    if (next) {
      // Muting sends what was said so far; nothing more is heard until unmuted.
      const current = this.recording;
      if (current?.speech) this.speechEnded(this.deps.clock.now());
      else if (current) this.discard(current);
      if (this.recording) this.discard(this.recording);
    }
    this.live.muted = next;
    this.set({ muted: next });
    if (!next && !this.recording) this.record();
  };

  readonly toggleSpeaker = (): void => {
    const next = !this.live.speakerOn;
    this.live.speakerOn = next;
    this.set({ speakerOn: next });
    this.audio?.setSpeakerOn(next);
  };

  // ---- Recording ----

  private record() {
    const microphone = this.microphone;
    if (!microphone || this.live.ended || this.live.muted) return;
    const { notify, clock } = this.deps;
    let media: CallRecording;
    try {
      media = microphone.record(() => notify.error(voiceTexts.recordingErrorTitle, voiceTexts.recordingError));
    } catch {
      notify.error(voiceTexts.recordingErrorTitle, voiceTexts.recordingError);
      return;
    }
    const current: Recording = { media, speech: false, limit: 0 };
    current.limit = clock.setTimeout(() => {
      if (this.recording === current && !current.speech) {
        this.discard(current);
        this.record();
      }
    }, maxRecordingMs);
    this.recording = current;
  }

  private discard(current: Recording) {
    this.deps.clock.clearTimeout(current.limit);
    if (this.recording === current) this.recording = null;
    current.media.discard();
  }

  /** The user started speaking: a coach still speaking stops at once (within one 20 ms frame). */
  private readonly speechStarted = () => {
    if (this.live.ended || this.live.muted) return;
    const speaking = this.turn;
    if (speaking && speaking.heard === null) {
      speaking.heard = speaking.speech.stop();
      this.deps.mark('voice:barge-in');
    }
    if (!this.recording) this.record();
    if (this.recording) this.recording.speech = true;
    this.set({ phase: 'recording' });
  };

  /** A short pause: the turn may be ending. The recording so far goes to be answered, provisionally. */
  private readonly speechPaused = () => {
    const current = this.recording;
    if (this.live.ended || this.live.muted || !current?.speech || this.speculation) return;
    const attempt = newAttempt(current);
    this.speculation = attempt;
    this.deps.mark('voice:speculation');
    // The recorder keeps going; what it has encoded so far is flushed and sent.
    void current.media.snapshot().then((audio) => {
      if (!attempt.abort.signal.aborted) void this.respond(audio, attempt);
    });
  };

  /** The user went on speaking before the turn ended: the speculative reply is given up. */
  private readonly speechResumed = () => {
    const attempt = this.speculation;
    if (!attempt) return;
    this.speculation = null;
    attempt.abort.abort();
    attempt.decide(false);
    this.deps.mark('voice:speculation-discarded');
  };

  /** The pause after speech: the turn is sent (or its speculative reply let through), and the microphone goes on listening. */
  private readonly speechEnded = (lastVoicedAt: number) => {
    const current = this.recording;
    if (this.live.ended || this.live.muted || !current?.speech) return;
    // The speech's real end, and the end of the turn (after the silence): bench:voice measures from both.
    this.deps.mark('voice:user-speech-end', lastVoicedAt);
    this.deps.mark('voice:turn-end');
    this.deps.clock.clearTimeout(current.limit);
    this.recording = null;
    const speculative = this.speculation;
    this.speculation = null;
    if (!this.turn) this.set({ phase: 'processing' });
    if (speculative?.recording === current) {
      // Nothing was said after the pause: the reply already asked for is this turn's.
      current.media.stop();
      speculative.decide(true);
    } else {
      speculative?.abort.abort();
      speculative?.decide(false);
      const attempt = newAttempt(current);
      attempt.decide(true);
      void current.media.finish().then((audio) => this.respond(audio, attempt));
    }
    this.record();
  };

  // ---- A turn's reply ----

  private async respond(audio: Blob, attempt: Attempt) {
    const { signal } = attempt.abort;
    if (this.live.ended || signal.aborted) return;
    this.attempts.add(attempt);
    try {
      await this.answer(audio, attempt);
    } finally {
      this.attempts.delete(attempt);
    }
  }

  /** Nothing to answer (no words, or a failure): the call listens again, if this was the turn. */
  private async listenAgain(attempt: Attempt) {
    if ((await attempt.decided) && !this.live.ended && !this.turn && !this.recording?.speech) this.set({ phase: 'listening' });
  }

  private async answer(audio: Blob, attempt: Attempt) {
    const { deps } = this;
    const { signal } = attempt.abort;
    // The turn before is saved first: it names the call's chat, which this turn is answered in.
    await this.previous;
    if (this.live.ended || signal.aborted) return;
    let saved: () => void = () => {};
    this.previous = new Promise<void>((resolve) => (saved = resolve));
    // What the user said (null until transcribed), and the reply as the model writes it.
    let text: string | null = null;
    // The turn's speech allowance: its sentences are spoken under the turn's own daily model turn.
    let allowance: string | undefined;
    let written = '';
    let go = false;
    let current: Turn | null = null;
    // Shown and spoken only once the user's turn has ended and what they said is known: a
    // speculative reply never talks over them.
    const begin = () => {
      if (current || !go || !text || signal.aborted || this.live.ended) return;
      this.live.hadSpeech = true;
      this.set({ youSaid: text, coachSaid: written });
      const started: Turn = {
        heard: null,
        speech: this.audio!.speak((sentence, stop) => deps.requests.fetchSpeech(sentence, stop, allowance), {
          onFirstAudio: () => {
            deps.mark('voice:first-audio');
            if (this.turn === started && started.heard === null) this.set({ phase: 'speaking' });
          },
          onError: () => deps.notify.error(voiceTexts.synthesisErrorTitle, voiceTexts.synthesisError),
        }),
      };
      current = started;
      this.turn = started;
      this.ensurePlayback();
      if (written) started.speech.write(written);
    };
    void attempt.decided.then((value) => {
      go = value;
      begin();
    });
    attempt.streaming = true;
    try {
      // One request: the recording is transcribed and answered by the server (the transcript comes
      // first). Provisional while the turn may still go on: then nothing is saved until it has ended.
      const result = await deps.requests.streamTurn(
        { chatId: this.live.chatId, audio, provisional: !attempt.ended },
        {
          onTranscript: (said, given) => {
            deps.mark('voice:transcribed');
            text = said.trim();
            allowance = given;
            begin();
          },
          onToken: (token) => {
            if (!written) deps.mark('voice:first-token');
            written += token;
            if (!current) return;
            this.set({ coachSaid: written });
            if (current.heard === null) current.speech.write(token);
          },
        },
        signal,
      );
      if (!text) {
        saved();
        return this.listenAgain(attempt);
      }
      // The turn ended with this attempt, and its reply began (it begins once both the decision
      // and the transcript are in, whichever came last; the callback above ran before this one).
      if (!(await attempt.decided)) return;
      const spoken = current as Turn | null;
      if (!spoken) return;
      // A provisional turn is saved now that the turn has ended (what was heard follows if interrupted).
      const kept = result.keep ? await deps.requests.keepTurn(result.keep) : result;
      saved();
      if (this.live.chatId !== kept.chatId && kept.chatId !== null) {
        this.live.chatId = kept.chatId;
        this.set({ chatId: kept.chatId });
      }
      deps.chatsChanged();
      if (spoken.heard === null) {
        spoken.speech.end();
        await spoken.speech.played;
      }
      // Interrupted: the chat keeps what was heard.
      if (spoken.heard !== null && kept.messageId !== null) {
        if (!this.live.ended) this.set({ coachSaid: spoken.heard });
        await deps.requests.storeHeard(kept.messageId, spoken.heard).catch(() => {});
        deps.chatsChanged();
      }
    } catch (error) {
      if (signal.aborted || this.live.ended || !(await attempt.decided)) return;
      const spoken = current as Turn | null;
      if (!spoken) {
        // Refused or failed before the reply began: voice is not set up (the call ends), a budget
        // refused (its message), or the recording could not be transcribed.
        if (error instanceof VoiceRequestError && error.status === 412) return this.fail(error.message);
        // The server could not take the recording as sent (its format, its size): say it again.
        if (text === null && error instanceof VoiceRequestError && unprocessable.has(error.status)) deps.notify.error(voiceTexts.processingErrorTitle, voiceTexts.processingError);
        else if (text === null) deps.notify.error(voiceTexts.transcriptionErrorTitle, error instanceof VoiceRequestError && error.status === 429 ? error.message : voiceTexts.transcriptionError);
        else deps.notify.error(voiceTexts.aiErrorTitle, error instanceof Error ? error.message : voiceTexts.aiError);
        return this.listenAgain(attempt);
      }
      spoken.speech.stop();
      deps.notify.error(voiceTexts.aiErrorTitle, error instanceof Error ? error.message : voiceTexts.aiError);
    } finally {
      saved();
      if (current && this.turn === current) {
        this.turn = null;
        if (!this.live.ended && !this.recording?.speech) this.set({ phase: 'listening' });
      }
    }
  }

  /**
   * The call's audio must be running (it plays the replies, and the microphone's voice detection
   * listens through it). A browser that keeps it suspended (autoplay rules: no recent click) is
   * told once per call that sound was blocked, and the next click anywhere lets it play.
   */
  private ensurePlayback() {
    const audio = this.audio;
    const { clock, notify, onNextClick } = this.deps;
    if (!audio || audio.state !== 'suspended' || this.playbackBlocked) return;
    const resumed = audio.resume().then(
      () => true,
      () => false,
    );
    const refused = new Promise<boolean>((resolve) => clock.setTimeout(() => resolve(false), playbackGraceMs));
    void Promise.race([resumed, refused]).then((running) => {
      if ((running && audio.state === 'running') || this.live.ended || this.audio !== audio || this.playbackBlocked) return;
      const stopWaiting = onNextClick(() => void audio.resume().catch(() => {}));
      this.playbackBlocked = { stopWaiting };
      notify.error(voiceTexts.playbackBlockedTitle, voiceTexts.playbackBlocked);
    });
  }

  private release() {
    this.playbackBlocked?.stopWaiting();
    this.playbackBlocked = null;
    if (this.clock !== null) this.deps.clock.clearInterval(this.clock);
    this.clock = null;
    // Recordings not yet answered are dropped; a reply already streaming for an ended turn is let
    // finish and saved (as a hang-up always kept the reply), while its speech stops below.
    for (const attempt of this.attempts) {
      if (attempt.streaming && attempt.ended) continue;
      attempt.abort.abort();
      attempt.decide(false);
    }
    this.speculation?.abort.abort();
    this.speculation?.decide(false);
    this.speculation = null;
    this.stopWatching?.();
    this.stopWatching = null;
    if (this.recording) this.discard(this.recording);
    this.turn?.speech.stop();
    this.turn = null;
    this.microphone?.close();
    this.microphone = null;
    void this.audio?.close().catch(() => {});
    this.audio = null;
  }

  private fail(message: string) {
    this.live.ended = true;
    this.release();
    this.set({ notice: message, status: 'disconnected' });
  }
}
