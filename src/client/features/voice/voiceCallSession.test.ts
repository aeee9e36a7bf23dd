import { describe, expect, it } from 'vitest';
import { voiceTexts } from '../../../shared/texts';
import type { SpeechEvents } from './streamedSpeech';
import type { VoiceActivityOptions } from './voiceActivity';
import { VoiceRequestError } from './voiceApi';
import { type CallAudio, type CallRecording, type Clock, maxRecordingMs, type Microphone, playbackGraceMs, type Speech, summaryAfterSeconds, VoiceCallSession, type VoiceTurnRequests } from './voiceCallSession';

// The browser voice call without a browser: a VoiceCallSession driven through fakes of
// what it talks to. The fake microphone's recordings hold the words said into them, and the fake
// turn request hears those words, so a speculative reply started at a pause carries only the
// words said before it. Time is a fake clock; the voice activity is told by the test.

/** Lets every promise already resolved run its callbacks. */
const settle = () => new Promise<void>((resolve) => setImmediate(resolve));

class FakeClock implements Clock {
  time = 0;
  private nextId = 1;
  private readonly timers = new Map<number, { at: number; run: () => void; every?: number }>();
  now = () => this.time;
  setTimeout = (run: () => void, ms: number) => this.add({ at: this.time + ms, run });
  setInterval = (run: () => void, ms: number) => this.add({ at: this.time + ms, run, every: ms });
  clearTimeout = (id: number) => void this.timers.delete(id);
  clearInterval = (id: number) => void this.timers.delete(id);
  get pending() {
    return this.timers.size;
  }
  private add(timer: { at: number; run: () => void; every?: number }) {
    const id = this.nextId++;
    this.timers.set(id, timer);
    return id;
  }
  async advance(ms: number) {
    const end = this.time + ms;
    for (;;) {
      const due = [...this.timers.entries()].filter(([, timer]) => timer.at <= end).sort(([, a], [, b]) => a.at - b.at)[0];
      if (!due) break;
      const [id, timer] = due;
      this.time = timer.at;
      if (timer.every) timer.at += timer.every;
      else this.timers.delete(id);
      timer.run();
      await settle();
    }
    this.time = end;
    await settle();
  }
}

class FakeRecording implements CallRecording {
  said = '';
  state: 'recording' | 'stopped' | 'finished' | 'discarded' = 'recording';
  constructor(readonly onError: () => void) {}
  say(words: string) {
    this.said += words;
  }
  snapshot() {
    return Promise.resolve(new Blob([this.said], { type: 'audio/webm' }));
  }
  finish() {
    this.state = 'finished';
    return Promise.resolve(new Blob([this.said], { type: 'audio/webm' }));
  }
  stop() {
    this.state = 'stopped';
  }
  discard() {
    this.state = 'discarded';
  }
}

class FakeSpeech implements Speech {
  written = '';
  ended = false;
  stopped = false;
  /** What has been played so far: what the user heard when they spoke over it. */
  private audible = '';
  private finish: () => void = () => {};
  readonly played = new Promise<void>((resolve) => (this.finish = resolve));
  constructor(readonly events: SpeechEvents) {}
  write(text: string) {
    this.written += text;
  }
  end() {
    this.ended = true;
  }
  stop() {
    this.stopped = true;
    this.finish();
    return this.audible;
  }
  startPlaying(audible: string) {
    this.audible = audible;
    this.events.onFirstAudio?.();
  }
  finishPlaying() {
    this.finish();
  }
}

class FakeAudio implements CallAudio {
  state: CallAudio['state'] = 'running';
  /** Held by autoplay rules: resume() waits until the page is clicked. */
  blocked = false;
  resumes = 0;
  speakerOn = true;
  closed = false;
  voice: VoiceActivityOptions | null = null;
  watching = false;
  readonly speeches: FakeSpeech[] = [];
  resume() {
    this.resumes += 1;
    if (this.blocked) return new Promise<void>(() => {});
    this.state = 'running';
    return Promise.resolve();
  }
  close() {
    this.closed = true;
    this.state = 'closed';
    return Promise.resolve();
  }
  setSpeakerOn(on: boolean) {
    this.speakerOn = on;
  }
  watchVoice(options: VoiceActivityOptions) {
    this.voice = options;
    this.watching = true;
    return () => {
      this.watching = false;
    };
  }
  speak(_fetch: unknown, events: SpeechEvents) {
    const speech = new FakeSpeech(events);
    this.speeches.push(speech);
    return speech;
  }
}

class FakeMicrophone implements Microphone {
  readonly recordings: FakeRecording[] = [];
  closed = false;
  constructor(readonly audio: FakeAudio) {}
  /** The browser cannot make the next recording (MediaRecorder throws). */
  failNext = false;
  record(onError: () => void) {
    if (this.failNext) {
      this.failNext = false;
      throw new DOMException('Not supported', 'NotSupportedError');
    }
    const recording = new FakeRecording(onError);
    this.recordings.push(recording);
    return recording;
  }
  connectAudio(speakerOn: boolean) {
    this.audio.speakerOn = speakerOn;
    return this.audio;
  }
  close() {
    this.closed = true;
  }
  /** The recording the microphone is making now. */
  get current() {
    const last = this.recordings.at(-1);
    return last?.state === 'recording' ? last : undefined;
  }
}

type TurnResult = Awaited<ReturnType<VoiceTurnRequests['streamTurn']>>;

/** One POST /api/voice/turn: the test plays the server's side (transcript, tokens, done or a failure). */
class TurnCall {
  private resolve: (result: TurnResult) => void = () => {};
  private reject: (error: unknown) => void = () => {};
  readonly result = new Promise<TurnResult>((resolve, reject) => {
    this.resolve = resolve;
    this.reject = reject;
  });
  constructor(
    readonly input: Parameters<VoiceTurnRequests['streamTurn']>[0],
    readonly handlers: Parameters<VoiceTurnRequests['streamTurn']>[1],
    readonly signal: AbortSignal,
  ) {
    // As fetch does: an aborted request rejects.
    signal.addEventListener('abort', () => this.reject(new DOMException('The operation was aborted.', 'AbortError')));
  }
  /** The words in the recording sent. */
  heard() {
    return this.input.audio.text();
  }
  transcript(text: string) {
    this.handlers.onTranscript(text, 'allowance-1');
  }
  token(text: string) {
    this.handlers.onToken(text);
  }
  done(result: Partial<TurnResult> = {}) {
    this.resolve({ chatId: 7, messageId: 70, reply: '', ...result });
  }
  fail(error: unknown) {
    this.reject(error);
  }
}

class FakeTurns implements VoiceTurnRequests {
  readonly calls: TurnCall[] = [];
  readonly kept: string[] = [];
  readonly heard: Array<{ messageId: number; heard: string }> = [];
  streamTurn: VoiceTurnRequests['streamTurn'] = (input, handlers, signal) => {
    const call = new TurnCall(input, handlers, signal);
    this.calls.push(call);
    return call.result;
  };
  keepTurn = async (keep: string) => {
    this.kept.push(keep);
    return { chatId: 7, messageId: 71 };
  };
  storeHeard = async (messageId: number, heard: string) => {
    this.heard.push({ messageId, heard });
  };
  fetchSpeech = async () => new Response(new Uint8Array());
}

function call(options: { denied?: boolean; unsupported?: boolean; blocked?: boolean; pauseMs?: number; chatId?: number | null } = {}) {
  const audio = new FakeAudio();
  if (options.blocked) {
    audio.state = 'suspended';
    audio.blocked = true;
  }
  const microphone = new FakeMicrophone(audio);
  const turns = new FakeTurns();
  const clock = new FakeClock();
  const toasts: Array<{ kind: 'error' | 'info'; title: string; message?: string }> = [];
  const marks: string[] = [];
  const clickWaiters = new Set<() => void>();
  let chatsChanged = 0;
  const session = new VoiceCallSession({
    microphone: {
      supported: () => !options.unsupported,
      open: () => (options.denied ? Promise.reject(new DOMException('Permission denied', 'NotAllowedError')) : Promise.resolve(microphone)),
    },
    requests: turns,
    clock,
    notify: {
      error: (title, message) => toasts.push({ kind: 'error', title, message }),
      info: (title, message) => toasts.push({ kind: 'info', title, message }),
    },
    mark: (name) => marks.push(name),
    chatsChanged: () => (chatsChanged += 1),
    onNextClick: (run) => {
      const once = () => {
        clickWaiters.delete(once);
        run();
      };
      clickWaiters.add(once);
      return () => clickWaiters.delete(once);
    },
  });
  let renders = 0;
  session.subscribe(() => (renders += 1));
  const voice = () => {
    if (!audio.voice) throw new Error('voice activity is not watched');
    return audio.voice;
  };
  return {
    session,
    audio,
    microphone,
    turns,
    clock,
    toasts,
    marks,
    clickWaiters,
    voice,
    get chatsChanged() {
      return chatsChanged;
    },
    get renders() {
      return renders;
    },
    state: () => session.getSnapshot(),
    start: async () => {
      const started = session.start({ chatId: options.chatId ?? null, silenceMs: 700, pauseMs: options.pauseMs ?? 150 });
      await started;
      await settle();
    },
    click: () => {
      for (const waiter of [...clickWaiters]) waiter();
    },
  };
}

describe('a voice call session', () => {
  it('a full turn: connecting, active, recording, processing, the reply shown and spoken, saved in a new chat, then listening again', async () => {
    const c = call();
    expect(c.state()).toMatchObject({ status: 'idle', phase: 'listening' });
    const starting = c.session.start({ chatId: null, silenceMs: 700, pauseMs: 150 });
    expect(c.state().status).toBe('connecting');
    await starting;
    expect(c.state().status).toBe('active');
    expect(c.audio.watching).toBe(true);
    expect(c.microphone.recordings).toHaveLength(1);
    await c.clock.advance(2_000);
    expect(c.state().seconds).toBe(2);

    c.voice().onSpeechStart();
    expect(c.state().phase).toBe('recording');
    c.microphone.current!.say('Help me plan my week');
    const turnRecording = c.microphone.current!;
    c.voice().onSpeechEnd(c.clock.now());
    expect(c.state().phase).toBe('processing');
    expect(c.marks).toEqual(expect.arrayContaining(['voice:user-speech-end', 'voice:turn-end']));
    expect(turnRecording.state).toBe('finished');
    // The microphone goes on listening: a new recording has started.
    expect(c.microphone.current).toBeDefined();
    expect(c.microphone.current).not.toBe(turnRecording);
    await settle();

    expect(c.turns.calls).toHaveLength(1);
    const turn = c.turns.calls[0]!;
    expect(turn.input).toMatchObject({ chatId: null, provisional: false });
    expect(await turn.heard()).toBe('Help me plan my week');
    turn.transcript(' Help me plan my week ');
    expect(c.state().youSaid).toBe('Help me plan my week');
    turn.token('Start with ');
    turn.token('one goal.');
    expect(c.state().coachSaid).toBe('Start with one goal.');
    const speech = c.audio.speeches[0]!;
    expect(speech.written).toBe('Start with one goal.');
    speech.startPlaying('Start');
    expect(c.state().phase).toBe('speaking');

    turn.done({ chatId: 7, messageId: 70, reply: 'Start with one goal.' });
    await settle();
    expect(c.state().chatId).toBe(7);
    expect(c.chatsChanged).toBe(1);
    expect(speech.ended).toBe(true);
    expect(c.state().phase).toBe('speaking');
    speech.finishPlaying();
    await settle();
    expect(c.state().phase).toBe('listening');

    // The next turn is answered in the chat the first one started.
    c.voice().onSpeechStart();
    c.microphone.current!.say('And tomorrow?');
    c.voice().onSpeechEnd(c.clock.now());
    await settle();
    expect(c.turns.calls[1]!.input.chatId).toBe(7);
    expect(c.toasts).toEqual([]);
  });

  it('opened from a chat, answers in it and shows no link to another chat', async () => {
    const c = call({ chatId: 12 });
    await c.start();
    c.voice().onSpeechStart();
    c.microphone.current!.say('Where were we?');
    c.voice().onSpeechEnd(c.clock.now());
    await settle();
    const turn = c.turns.calls[0]!;
    expect(turn.input.chatId).toBe(12);
    turn.transcript('Where were we?');
    turn.done({ chatId: 12, messageId: 5 });
    await settle();
    expect(c.state().chatId).toBeNull();
  });

  it('a reply started at a pause is given up when the user goes on speaking: nothing shown, played or saved; the turn is answered once', async () => {
    const c = call();
    await c.start();
    c.voice().onSpeechStart();
    c.microphone.current!.say('I want');
    c.voice().onPause!(c.clock.now());
    expect(c.marks).toContain('voice:speculation');
    await settle();
    const speculative = c.turns.calls[0]!;
    expect(speculative.input.provisional).toBe(true);
    expect(await speculative.heard()).toBe('I want');
    // Its transcript and first tokens arrive while the user is still in their turn: nothing shows.
    speculative.transcript('I want');
    speculative.token('Sure, ');
    expect(c.state()).toMatchObject({ youSaid: '', coachSaid: '', phase: 'recording' });
    expect(c.audio.speeches).toHaveLength(0);

    c.voice().onResume!();
    expect(speculative.signal.aborted).toBe(true);
    expect(c.marks).toContain('voice:speculation-discarded');
    c.microphone.current!.say(' to plan my week');
    c.voice().onSpeechEnd(c.clock.now());
    await settle();

    expect(c.turns.calls).toHaveLength(2);
    const turn = c.turns.calls[1]!;
    expect(turn.input.provisional).toBe(false);
    expect(await turn.heard()).toBe('I want to plan my week');
    turn.transcript('I want to plan my week');
    turn.token('Good. Name the week.');
    turn.done();
    await settle();
    expect(c.state()).toMatchObject({ youSaid: 'I want to plan my week', coachSaid: 'Good. Name the week.' });
    expect(c.audio.speeches).toHaveLength(1);
    expect(c.audio.speeches[0]!.written).toBe('Good. Name the week.');
    expect(c.turns.kept).toEqual([]);
    expect(c.chatsChanged).toBe(1);
  });

  it('a reply started at a pause becomes the turn when nothing more is said: shown from the turn end on, then kept', async () => {
    const c = call();
    await c.start();
    c.voice().onSpeechStart();
    const recording = c.microphone.current!;
    recording.say('Plan my week');
    c.voice().onPause!(c.clock.now());
    await settle();
    const speculative = c.turns.calls[0]!;
    speculative.transcript('Plan my week');
    speculative.token('Start ');
    expect(c.state().coachSaid).toBe('');

    c.voice().onSpeechEnd(c.clock.now());
    expect(recording.state).toBe('stopped');
    await settle();
    // No second request: the reply already on its way is this turn's, shown with what it has so far.
    expect(c.turns.calls).toHaveLength(1);
    expect(c.state()).toMatchObject({ youSaid: 'Plan my week', coachSaid: 'Start ' });
    const speech = c.audio.speeches[0]!;
    expect(speech.written).toBe('Start ');
    speculative.token('small.');
    expect(speech.written).toBe('Start small.');
    speculative.done({ chatId: null, messageId: null, keep: 'keep-token' });
    await settle();
    expect(c.turns.kept).toEqual(['keep-token']);
    expect(c.state().chatId).toBe(7);
  });

  it('a speculative reply complete before the turn ends waits for it, then is shown, spoken to its end and kept', async () => {
    const c = call();
    await c.start();
    c.voice().onSpeechStart();
    c.microphone.current!.say('Plan my week');
    c.voice().onPause!(c.clock.now());
    await settle();
    const speculative = c.turns.calls[0]!;
    speculative.transcript('Plan my week');
    speculative.token('Start small');
    speculative.done({ chatId: null, messageId: null, keep: 'keep-early' });
    await settle();
    expect(c.turns.kept).toEqual([]);
    expect(c.state().coachSaid).toBe('');

    c.voice().onSpeechEnd(c.clock.now());
    await settle();
    expect(c.state()).toMatchObject({ youSaid: 'Plan my week', coachSaid: 'Start small', chatId: 7 });
    expect(c.turns.kept).toEqual(['keep-early']);
    expect(c.audio.speeches[0]).toMatchObject({ written: 'Start small', ended: true });
  });

  it('a speculative reply whose transcript comes only after the turn ended is still shown, spoken to its end and kept', async () => {
    // A transcription slower than the silence that ends the turn (700 - 150 ms).
    const c = call();
    await c.start();
    c.voice().onSpeechStart();
    c.microphone.current!.say('Plan my week');
    c.voice().onPause!(c.clock.now());
    await settle();
    c.voice().onSpeechEnd(c.clock.now());
    await settle();
    const turn = c.turns.calls[0]!;
    expect(turn.input.provisional).toBe(true);
    turn.transcript('Plan my week');
    turn.token('Start small.');
    turn.done({ chatId: null, messageId: null, keep: 'keep-late' });
    await settle();
    expect(c.state()).toMatchObject({ youSaid: 'Plan my week', coachSaid: 'Start small.', chatId: 7 });
    expect(c.turns.kept).toEqual(['keep-late']);
    expect(c.audio.speeches[0]).toMatchObject({ written: 'Start small.', ended: true });
  });

  it('with pauseMs 0 no reply is started at a pause', async () => {
    const c = call({ pauseMs: 0 });
    await c.start();
    expect(c.voice().onPause).toBeUndefined();
    expect(c.voice().onResume).toBeUndefined();
  });

  it("a recording the server cannot process shows 'Processing Error', and the call goes on listening", async () => {
    const c = call();
    await c.start();
    c.voice().onSpeechStart();
    c.microphone.current!.say('Hello');
    c.voice().onSpeechEnd(c.clock.now());
    await settle();
    c.turns.calls[0]!.fail(new VoiceRequestError(415, 'Send the recording as audio'));
    await settle();
    expect(c.toasts).toEqual([{ kind: 'error', title: voiceTexts.processingErrorTitle, message: voiceTexts.processingError }]);
    expect(c.state()).toMatchObject({ status: 'active', phase: 'listening' });
    expect(c.microphone.current).toBeDefined();
  });

  it('other failures: a transcription failure, a budget refused, the model failing, voice not set up', async () => {
    const c = call();
    await c.start();
    const turn = async () => {
      c.voice().onSpeechStart();
      c.microphone.current!.say('Hello');
      c.voice().onSpeechEnd(c.clock.now());
      await settle();
      return c.turns.calls.at(-1)!;
    };
    (await turn()).fail(new VoiceRequestError(502, 'upstream'));
    await settle();
    expect(c.toasts.at(-1)).toEqual({ kind: 'error', title: voiceTexts.transcriptionErrorTitle, message: voiceTexts.transcriptionError });
    (await turn()).fail(new VoiceRequestError(429, 'Too many voice requests. Please wait 30 seconds.'));
    await settle();
    expect(c.toasts.at(-1)).toEqual({ kind: 'error', title: voiceTexts.transcriptionErrorTitle, message: 'Too many voice requests. Please wait 30 seconds.' });
    const answered = await turn();
    answered.transcript('Hello');
    answered.token('Hi');
    answered.fail(new VoiceRequestError(502, 'The model failed'));
    await settle();
    expect(c.toasts.at(-1)).toEqual({ kind: 'error', title: voiceTexts.aiErrorTitle, message: 'The model failed' });
    expect(c.audio.speeches.at(-1)!.stopped).toBe(true);
    expect(c.state()).toMatchObject({ status: 'active', phase: 'listening' });

    (await turn()).fail(new VoiceRequestError(412, 'Voice is not set up'));
    await settle();
    expect(c.state()).toMatchObject({ status: 'disconnected', notice: 'Voice is not set up' });
    expect(c.microphone.closed).toBe(true);
  });

  it('a recording without words ends the turn with nothing shown or saved', async () => {
    const c = call();
    await c.start();
    c.voice().onSpeechStart();
    c.voice().onSpeechEnd(c.clock.now());
    await settle();
    c.turns.calls[0]!.transcript('');
    c.turns.calls[0]!.done({ chatId: null, messageId: null });
    await settle();
    expect(c.state()).toMatchObject({ phase: 'listening', youSaid: '', chatId: null });
    expect(c.audio.speeches).toHaveLength(0);
    expect(c.chatsChanged).toBe(0);
  });

  it("audio the browser keeps suspended shows 'Audio Playback Blocked' once, and the next click lets it play", async () => {
    const c = call({ blocked: true });
    await c.start();
    expect(c.audio.resumes).toBe(1);
    await c.clock.advance(playbackGraceMs - 1);
    expect(c.toasts).toEqual([]);
    await c.clock.advance(1);
    expect(c.toasts).toEqual([{ kind: 'error', title: voiceTexts.playbackBlockedTitle, message: voiceTexts.playbackBlocked }]);
    expect(c.clickWaiters.size).toBe(1);

    // A turn's reply while still blocked: not told again.
    c.voice().onSpeechStart();
    c.microphone.current!.say('Hello');
    c.voice().onSpeechEnd(c.clock.now());
    await settle();
    c.turns.calls[0]!.transcript('Hello');
    await c.clock.advance(playbackGraceMs);
    expect(c.toasts).toHaveLength(1);
    expect(c.audio.resumes).toBe(1);

    c.audio.blocked = false;
    c.click();
    await settle();
    expect(c.audio.state).toBe('running');
    expect(c.clickWaiters.size).toBe(0);
  });

  it('hanging up while playback is blocked stops waiting for the click', async () => {
    const c = call({ blocked: true });
    await c.start();
    await c.clock.advance(playbackGraceMs);
    expect(c.clickWaiters.size).toBe(1);
    c.session.hangUp();
    expect(c.clickWaiters.size).toBe(0);
  });

  it('audio that starts within the grace time is not reported', async () => {
    const c = call();
    c.audio.state = 'suspended';
    await c.start();
    expect(c.audio.state).toBe('running');
    await c.clock.advance(playbackGraceMs * 2);
    expect(c.toasts).toEqual([]);
  });

  it('mute pauses the call: what was said is sent, nothing more is heard; unmute resumes listening', async () => {
    const c = call();
    await c.start();
    c.voice().onSpeechStart();
    const recording = c.microphone.current!;
    recording.say('Hold on');
    c.session.toggleMute();
    expect(c.state().muted).toBe(true);
    expect(recording.state).toBe('finished');
    expect(c.microphone.current).toBeUndefined();
    await settle();
    expect(c.turns.calls).toHaveLength(1);
    expect(await c.turns.calls[0]!.heard()).toBe('Hold on');

    // Muted: the voice is not heard.
    c.voice().onSpeechStart();
    c.voice().onSpeechEnd(c.clock.now());
    await settle();
    expect(c.microphone.current).toBeUndefined();
    expect(c.turns.calls).toHaveLength(1);

    c.session.toggleMute();
    expect(c.state().muted).toBe(false);
    expect(c.microphone.current).toBeDefined();
    c.voice().onSpeechStart();
    expect(c.state().phase).toBe('recording');

    // Muting without speech drops the recording.
    const silent = call();
    await silent.start();
    const idle = silent.microphone.current!;
    silent.session.toggleMute();
    expect(idle.state).toBe('discarded');
    await settle();
    expect(silent.turns.calls).toHaveLength(0);
  });

  it('the speaker button silences the reply and keeps the choice for the next call', async () => {
    const c = call();
    await c.start();
    c.session.toggleSpeaker();
    expect(c.state().speakerOn).toBe(false);
    expect(c.audio.speakerOn).toBe(false);
    c.session.hangUp();
    await c.start();
    expect(c.audio.speakerOn).toBe(false);
  });

  it('speaking over the coach stops it at once; the chat keeps what was heard', async () => {
    const c = call();
    await c.start();
    c.voice().onSpeechStart();
    c.microphone.current!.say('Help me plan my week');
    c.voice().onSpeechEnd(c.clock.now());
    await settle();
    const turn = c.turns.calls[0]!;
    turn.transcript('Help me plan my week');
    turn.token('Start with one goal. Then block the time.');
    const speech = c.audio.speeches[0]!;
    speech.startPlaying('Start with');
    expect(c.state().phase).toBe('speaking');

    c.voice().onSpeechStart();
    expect(speech.stopped).toBe(true);
    expect(c.marks).toContain('voice:barge-in');
    expect(c.state().phase).toBe('recording');
    // Sound of the stopped reply that was already under way does not bring the phase back.
    speech.events.onFirstAudio?.();
    expect(c.state().phase).toBe('recording');
    turn.done({ chatId: 7, messageId: 70 });
    await settle();
    expect(c.turns.heard).toEqual([{ messageId: 70, heard: 'Start with' }]);
    expect(c.state().coachSaid).toBe('Start with');
    expect(speech.ended).toBe(false);
    expect(c.chatsChanged).toBe(2);
  });

  it("a microphone that cannot record shows 'Recording Error', and speaking tries again", async () => {
    const c = call();
    c.microphone.failNext = true;
    await c.start();
    expect(c.toasts).toEqual([{ kind: 'error', title: voiceTexts.recordingErrorTitle, message: voiceTexts.recordingError }]);
    expect(c.microphone.current).toBeUndefined();
    c.voice().onSpeechStart();
    expect(c.microphone.current).toBeDefined();
    // A recorder that stops with an error says so too.
    c.microphone.current!.onError();
    expect(c.toasts).toHaveLength(2);
    c.microphone.current!.say('Hello');
    c.voice().onSpeechEnd(c.clock.now());
    await settle();
    expect(await c.turns.calls[0]!.heard()).toBe('Hello');
  });

  it('a recording nobody speaks into is started afresh after 30 s', async () => {
    const c = call();
    await c.start();
    const first = c.microphone.current!;
    await c.clock.advance(maxRecordingMs);
    expect(first.state).toBe('discarded');
    expect(c.microphone.recordings).toHaveLength(2);
    expect(c.microphone.current).toBeDefined();
  });

  it('hanging up during a reply stops the timers, the microphone, the voice watch, the recording and the speech; the reply is still saved', async () => {
    const c = call();
    await c.start();
    c.voice().onSpeechStart();
    c.microphone.current!.say('Plan my week');
    c.voice().onSpeechEnd(c.clock.now());
    await settle();
    const spoken = c.turns.calls[0]!;
    spoken.transcript('Plan my week');
    spoken.token('Start small.');
    const speech = c.audio.speeches[0]!;
    speech.startPlaying('Start');
    const open = c.microphone.current!;
    await c.clock.advance(31_000);
    expect(c.clock.pending).toBeGreaterThan(0);

    c.session.hangUp();
    expect(c.state()).toMatchObject({ status: 'ended', endedAfter: 31, seconds: 0 });
    expect(c.clock.pending).toBe(0);
    expect(c.microphone.closed).toBe(true);
    expect(c.audio.watching).toBe(false);
    expect(c.audio.closed).toBe(true);
    expect(open.state).toBe('discarded');
    expect(speech.stopped).toBe(true);
    // The turn had ended: its reply is let finish and saved, as a hang-up always kept the reply.
    expect(spoken.signal.aborted).toBe(false);
    spoken.done({ chatId: 7, messageId: 70 });
    await settle();
    expect(c.chatsChanged).toBeGreaterThan(0);
    // Over 30 s with speech: the summary toast.
    expect(c.toasts).toEqual([{ kind: 'info', title: voiceTexts.summaryTitle, message: voiceTexts.summaryBody }]);

    // Nothing runs on after the call: the clock no longer ticks, the voice is not heard.
    await c.clock.advance(5_000);
    expect(c.state().seconds).toBe(0);
    c.voice().onSpeechStart();
    expect(c.microphone.recordings.every((recording) => recording.state !== 'recording')).toBe(true);
    c.session.hangUp();
    expect(c.toasts).toHaveLength(1);
  });

  it('hanging up cancels a speculative reply, and a turn waiting for the one before is never sent', async () => {
    const c = call();
    await c.start();
    c.voice().onSpeechStart();
    c.microphone.current!.say('Plan');
    c.voice().onPause!(c.clock.now());
    await settle();
    const speculative = c.turns.calls[0]!;
    c.session.hangUp();
    expect(speculative.signal.aborted).toBe(true);
    expect(c.state().status).toBe('ended');

    // A turn whose reply is streaming, and the user speaking on into a new one (it waits for the
    // turn before to be saved, since that names the chat).
    await c.start();
    c.voice().onSpeechStart();
    c.microphone.current!.say('Plan my week');
    c.voice().onSpeechEnd(c.clock.now());
    await settle();
    const first = c.turns.calls[1]!;
    first.transcript('Plan my week');
    c.voice().onSpeechStart();
    c.microphone.current!.say('And');
    c.voice().onSpeechEnd(c.clock.now());
    await settle();
    expect(c.turns.calls).toHaveLength(2);
    c.session.hangUp();
    first.done();
    await settle();
    expect(c.turns.calls).toHaveLength(2);
  });

  it(`a short call without speech ends without the summary toast (${summaryAfterSeconds} s and speech needed)`, async () => {
    const c = call();
    await c.start();
    await c.clock.advance(40_000);
    c.session.hangUp();
    expect(c.toasts).toEqual([]);
  });

  it('the dialog closing lets everything go, and the call can be started again', async () => {
    const c = call();
    await c.start();
    c.session.close();
    expect(c.clock.pending).toBe(0);
    expect(c.microphone.closed).toBe(true);
    await c.start();
    expect(c.state().status).toBe('active');
  });

  it('a denied microphone disconnects with its notice; a browser without recording too', async () => {
    const denied = call({ denied: true });
    await denied.start();
    expect(denied.state()).toMatchObject({ status: 'disconnected', notice: voiceTexts.micDenied });
    expect(denied.toasts).toEqual([{ kind: 'error', title: voiceTexts.micDeniedTitle, message: voiceTexts.micDenied }]);
    const unsupported = call({ unsupported: true });
    await unsupported.start();
    expect(unsupported.state()).toMatchObject({ status: 'disconnected', notice: voiceTexts.notSupported });
    expect(unsupported.toasts[0]!.title).toBe(voiceTexts.notSupportedTitle);
  });

  it('hanging up while the microphone prompt is open gives the microphone back when it comes', async () => {
    const c = call();
    const starting = c.session.start({ chatId: null, silenceMs: 700, pauseMs: 150 });
    c.session.hangUp();
    await starting;
    expect(c.microphone.closed).toBe(true);
    expect(c.audio.watching).toBe(false);
    expect(c.state().status).toBe('ended');
  });

  it('tells its subscribers of each change, with a new snapshot each time', async () => {
    const c = call();
    const before = c.state();
    await c.start();
    expect(c.renders).toBeGreaterThan(0);
    expect(c.state()).not.toBe(before);
    const same = c.state();
    expect(c.state()).toBe(same);
  });
});
