import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useRef, useState } from 'react';
import { voiceTexts } from '../../../shared/texts';
import { notify } from '../../lib/notify';
import { trpc } from '../../lib/trpc';
import { StreamedSpeech } from './streamedSpeech';
import { fetchSpeech, keepTurn, storeHeard, streamTurn, VoiceRequestError } from './voiceApi';
import { defaultPauseMs, defaultSilenceMs, watchVoiceActivity } from './voiceActivity';

// The browser voice call of the product spec's states and transitions, streamed and interruptible (issue 25): connecting,
// then active once the microphone is granted (disconnected on denial). The microphone listens the
// whole call, the coach speaking or not. A turn ends after `silenceMs` of silence; it is
// transcribed, and the coach's reply is shown and spoken sentence by sentence while it is written.
// Speaking while the coach speaks stops the coach at once and starts a new turn; what was heard of
// the reply is what the chat keeps.
//
// The reply starts speculatively (issue 25's latency budget): at a short pause (`pauseMs`) the
// recording so far is transcribed and the reply requested as a provisional turn. If the user goes
// on speaking before the turn ends, that attempt is aborted (its requests cancelled, nothing shown,
// played or stored); when the turn does end, the attempt becomes the turn: its reply, usually
// already on its way, is shown and played from then on (never over the user), and saved through
// POST /api/voice/keep.

export type CallStatus = 'idle' | 'connecting' | 'active' | 'disconnected' | 'ended';
export type TurnPhase = 'listening' | 'recording' | 'processing' | 'speaking';

export const autoStartMs = 1000;
export const summaryAfterSeconds = 30;
/** A recording nobody speaks into is started afresh, so it never grows without end. */
const maxRecordingMs = 30_000;
// How long a suspended audio output may take to start before the browser is taken to refuse it.
const playbackGraceMs = 1_000;
// A turn refused for the recording itself (malformed, too large, a type the server does not take).
const unprocessable = new Set([400, 413, 415, 422]);

export function formatDuration(seconds: number): string {
  return `${String(Math.floor(seconds / 60)).padStart(2, '0')}:${String(seconds % 60).padStart(2, '0')}`;
}

type Recording = { media: MediaRecorder; chunks: Blob[]; speech: boolean; limit: number };
type Turn = { speech: StreamedSpeech; heard: string | null };
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

/**
 * A browser voice call. `openChatId` is the chat the call was opened from: its earlier messages
 * are the coach's context and the call's turns are saved into it. Without one, the first turn
 * starts a chat of its own.
 */
export function useVoiceCall(openChatId: number | null = null, options: { silenceMs?: number; pauseMs?: number } = {}) {
  const queryClient = useQueryClient();
  const silenceMs = options.silenceMs ?? defaultSilenceMs;
  // The pause that starts a speculative reply; 0 (or not below silenceMs) turns speculation off.
  const pauseMs = options.pauseMs ?? defaultPauseMs;
  const [status, setStatus] = useState<CallStatus>('idle');
  const [phase, setPhase] = useState<TurnPhase>('listening');
  const [youSaid, setYouSaid] = useState('');
  const [coachSaid, setCoachSaid] = useState('');
  const [seconds, setSeconds] = useState(0);
  const [endedAfter, setEndedAfter] = useState<number | null>(null);
  const [muted, setMuted] = useState(false);
  const [speakerOn, setSpeakerOn] = useState(true);
  const [notice, setNotice] = useState<string | null>(null);
  const [chatId, setChatId] = useState<number | null>(null);

  // Live values for the callbacks of the recorder, the analyser and the player.
  const live = useRef({ muted: false, speakerOn: true, ended: true, chatId: null as number | null, hadSpeech: false, seconds: 0 });
  const stream = useRef<MediaStream | null>(null);
  const audioContext = useRef<AudioContext | null>(null);
  const speaker = useRef<GainNode | null>(null);
  const recording = useRef<Recording | null>(null);
  const stopWatching = useRef<(() => void) | null>(null);
  const turn = useRef<Turn | null>(null);
  // The turn before: the next one waits for it to be saved (it needs the call's chat).
  const previous = useRef<Promise<void>>(Promise.resolve());
  // Recordings on their way to a reply, and the one started at the current pause (not yet decided).
  const attempts = useRef(new Set<Attempt>());
  const speculation = useRef<Attempt | null>(null);
  const clock = useRef<number | null>(null);
  // The browser refused to play audio in this call: told once, sound allowed on the next click.
  const playbackBlocked = useRef<{ unlock: () => void } | null>(null);

  const record = () => {
    const mic = stream.current;
    if (!mic || live.current.ended || live.current.muted) return;
    let media: MediaRecorder;
    try {
      media = MediaRecorder.isTypeSupported('audio/webm') ? new MediaRecorder(mic, { mimeType: 'audio/webm' }) : new MediaRecorder(mic);
    } catch {
      notify.error(voiceTexts.recordingErrorTitle, voiceTexts.recordingError);
      return;
    }
    const current: Recording = { media, chunks: [], speech: false, limit: 0 };
    media.ondataavailable = (event) => {
      if (event.data.size) current.chunks.push(event.data);
    };
    media.onerror = () => notify.error(voiceTexts.recordingErrorTitle, voiceTexts.recordingError);
    current.limit = window.setTimeout(() => {
      if (recording.current === current && !current.speech) {
        discard(current);
        record();
      }
    }, maxRecordingMs);
    recording.current = current;
    media.start(100);
  };

  const discard = (current: Recording) => {
    window.clearTimeout(current.limit);
    if (recording.current === current) recording.current = null;
    current.media.ondataavailable = null;
    current.media.onstop = null;
    if (current.media.state !== 'inactive') current.media.stop();
  };

  /** The user started speaking: a coach still speaking stops at once (within one 20 ms frame). */
  const speechStarted = () => {
    if (live.current.ended || live.current.muted) return;
    const speaking = turn.current;
    if (speaking && speaking.heard === null) {
      speaking.heard = speaking.speech.stop();
      performance.mark('voice:barge-in');
    }
    if (!recording.current) record();
    if (recording.current) recording.current.speech = true;
    setPhase('recording');
  };

  /** A short pause: the turn may be ending. The recording so far goes to be answered, provisionally. */
  const speechPaused = () => {
    const current = recording.current;
    if (live.current.ended || live.current.muted || !current?.speech || speculation.current) return;
    const attempt = newAttempt(current);
    speculation.current = attempt;
    performance.mark('voice:speculation');
    // The recorder keeps going; what it has encoded so far is flushed and sent.
    current.media.addEventListener(
      'dataavailable',
      () => {
        if (!attempt.abort.signal.aborted) void respond(new Blob(current.chunks, { type: current.media.mimeType || 'audio/webm' }), attempt);
      },
      { once: true },
    );
    current.media.requestData();
  };

  /** The user went on speaking before the turn ended: the speculative reply is given up. */
  const speechResumed = () => {
    const attempt = speculation.current;
    if (!attempt) return;
    speculation.current = null;
    attempt.abort.abort();
    attempt.decide(false);
    performance.mark('voice:speculation-discarded');
  };

  /** The pause after speech: the turn is sent (or its speculative reply let through), and the microphone goes on listening. */
  const speechEnded = (lastVoicedAt: number) => {
    const current = recording.current;
    if (live.current.ended || live.current.muted || !current?.speech) return;
    // The speech's real end, and the end of the turn (after the silence): bench:voice measures from both.
    performance.mark('voice:user-speech-end', { startTime: lastVoicedAt });
    performance.mark('voice:turn-end');
    window.clearTimeout(current.limit);
    recording.current = null;
    const speculative = speculation.current;
    speculation.current = null;
    if (!turn.current) setPhase('processing');
    if (speculative?.recording === current) {
      // Nothing was said after the pause: the reply already asked for is this turn's.
      current.media.onstop = null;
      current.media.stop();
      speculative.decide(true);
    } else {
      speculative?.abort.abort();
      speculative?.decide(false);
      const attempt = newAttempt(current);
      attempt.decide(true);
      current.media.onstop = () => void respond(new Blob(current.chunks, { type: current.media.mimeType || 'audio/webm' }), attempt);
      current.media.stop();
    }
    record();
  };

  const respond = async (audio: Blob, attempt: Attempt) => {
    const { signal } = attempt.abort;
    if (live.current.ended || signal.aborted) return;
    attempts.current.add(attempt);
    try {
      await answer(audio, attempt);
    } finally {
      attempts.current.delete(attempt);
    }
  };

  /** Nothing to answer (no words, or a failure): the call listens again, if this was the turn. */
  const listenAgain = async (attempt: Attempt) => {
    if ((await attempt.decided) && !live.current.ended && !turn.current && !recording.current?.speech) setPhase('listening');
  };

  const answer = async (audio: Blob, attempt: Attempt) => {
    const { signal } = attempt.abort;
    // The turn before is saved first: it names the call's chat, which this turn is answered in.
    await previous.current;
    if (live.current.ended || signal.aborted) return;
    let saved: () => void = () => {};
    previous.current = new Promise<void>((resolve) => (saved = resolve));
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
      if (current || !go || !text || signal.aborted || live.current.ended) return;
      live.current.hadSpeech = true;
      setYouSaid(text);
      setCoachSaid(written);
      const started: Turn = {
        heard: null,
        speech: new StreamedSpeech(audioContext.current!, speaker.current!, (sentence, stop) => fetchSpeech(sentence, stop, allowance), {
          onFirstAudio: () => {
            performance.mark('voice:first-audio');
            if (turn.current === started && started.heard === null) setPhase('speaking');
          },
          onError: () => notify.error(voiceTexts.synthesisErrorTitle, voiceTexts.synthesisError),
        }),
      };
      current = started;
      turn.current = started;
      ensurePlayback();
      if (written) started.speech.write(written);
    };
    void attempt.decided.then((value) => {
      go = value;
      begin();
    });
    const decided = attempt.decided.then((value) => value && current !== null);
    attempt.streaming = true;
    try {
      // One request: the recording is transcribed and answered by the server (the transcript comes
      // first). Provisional while the turn may still go on: then nothing is saved until it has ended.
      const result = await streamTurn(
        { chatId: live.current.chatId, audio, provisional: !attempt.ended },
        {
          onTranscript: (said, given) => {
            performance.mark('voice:transcribed');
            text = said.trim();
            allowance = given;
            begin();
          },
          onToken: (token) => {
            if (!written) performance.mark('voice:first-token');
            written += token;
            if (!current) return;
            setCoachSaid(written);
            if (current.heard === null) current.speech.write(token);
          },
        },
        signal,
      );
      if (!text) {
        saved();
        return listenAgain(attempt);
      }
      if (!(await decided)) return;
      const spoken = current as Turn | null;
      if (!spoken) return;
      // A provisional turn is saved now that the turn has ended (what was heard follows if interrupted).
      const kept = result.keep ? await keepTurn(result.keep) : result;
      saved();
      if (live.current.chatId !== kept.chatId && kept.chatId !== null) {
        live.current.chatId = kept.chatId;
        setChatId(kept.chatId);
      }
      void queryClient.invalidateQueries({ queryKey: trpc.chats.list.queryKey() });
      if (spoken.heard === null) {
        spoken.speech.end();
        await spoken.speech.played;
      }
      // Interrupted: the chat keeps what was heard.
      if (spoken.heard !== null && kept.messageId !== null) {
        if (!live.current.ended) setCoachSaid(spoken.heard);
        await storeHeard(kept.messageId, spoken.heard).catch(() => {});
        void queryClient.invalidateQueries({ queryKey: trpc.chats.list.queryKey() });
      }
    } catch (error) {
      if (signal.aborted || live.current.ended || !(await attempt.decided)) return;
      const spoken = current as Turn | null;
      if (!spoken) {
        // Refused or failed before the reply began: voice is not set up (the call ends), a budget
        // refused (its message), or the recording could not be transcribed.
        if (error instanceof VoiceRequestError && error.status === 412) return fail(error.message);
        // The server could not take the recording as sent (its format, its size): say it again.
        if (text === null && error instanceof VoiceRequestError && unprocessable.has(error.status)) notify.error(voiceTexts.processingErrorTitle, voiceTexts.processingError);
        else if (text === null) notify.error(voiceTexts.transcriptionErrorTitle, error instanceof VoiceRequestError && error.status === 429 ? error.message : voiceTexts.transcriptionError);
        else notify.error(voiceTexts.aiErrorTitle, error instanceof Error ? error.message : voiceTexts.aiError);
        return listenAgain(attempt);
      }
      spoken.speech.stop();
      notify.error(voiceTexts.aiErrorTitle, error instanceof Error ? error.message : voiceTexts.aiError);
    } finally {
      saved();
      if (current && turn.current === current) {
        turn.current = null;
        if (!live.current.ended && !recording.current?.speech) setPhase('listening');
      }
    }
  };

  /**
   * The call's audio must be running (it plays the replies, and the microphone's voice detection
   * listens through it). A browser that keeps it suspended (autoplay rules: no recent click) is
   * told once per call that sound was blocked, and the next click anywhere lets it play.
   */
  const ensurePlayback = () => {
    const context = audioContext.current;
    if (!context || context.state !== 'suspended' || playbackBlocked.current) return;
    const resumed = context.resume().then(
      () => true,
      () => false,
    );
    const refused = new Promise<boolean>((resolve) => window.setTimeout(() => resolve(false), playbackGraceMs));
    void Promise.race([resumed, refused]).then((running) => {
      if ((running && context.state === 'running') || live.current.ended || audioContext.current !== context || playbackBlocked.current) return;
      const unlock = () => void context.resume().catch(() => {});
      playbackBlocked.current = { unlock };
      document.addEventListener('pointerdown', unlock, { capture: true, once: true });
      notify.error(voiceTexts.playbackBlockedTitle, voiceTexts.playbackBlocked);
    });
  };

  const release = () => {
    if (playbackBlocked.current) document.removeEventListener('pointerdown', playbackBlocked.current.unlock, { capture: true });
    playbackBlocked.current = null;
    if (clock.current !== null) window.clearInterval(clock.current);
    clock.current = null;
    // Recordings not yet answered are dropped; a reply already streaming for an ended turn is let
    // finish and saved (as a hang-up always kept the reply), while its speech stops below.
    for (const attempt of attempts.current) {
      if (attempt.streaming && attempt.ended) continue;
      attempt.abort.abort();
      attempt.decide(false);
    }
    speculation.current?.abort.abort();
    speculation.current?.decide(false);
    speculation.current = null;
    stopWatching.current?.();
    stopWatching.current = null;
    if (recording.current) discard(recording.current);
    turn.current?.speech.stop();
    turn.current = null;
    for (const track of stream.current?.getTracks() ?? []) track.stop();
    stream.current = null;
    void audioContext.current?.close().catch(() => {});
    audioContext.current = null;
  };

  const fail = (message: string) => {
    live.current.ended = true;
    release();
    setNotice(message);
    setStatus('disconnected');
  };

  const start = useCallback(async () => {
    release();
    live.current = { muted: false, speakerOn: live.current.speakerOn, ended: false, chatId: openChatId, hadSpeech: false, seconds: 0 };
    previous.current = Promise.resolve();
    setStatus('connecting');
    setNotice(null);
    setYouSaid('');
    setCoachSaid('');
    setSeconds(0);
    setEndedAfter(null);
    setMuted(false);
    setChatId(null);
    setPhase('listening');
    if (!navigator.mediaDevices?.getUserMedia || typeof MediaRecorder === 'undefined') {
      notify.error(voiceTexts.notSupportedTitle, voiceTexts.notSupported);
      return fail(voiceTexts.notSupported);
    }
    try {
      stream.current = await navigator.mediaDevices.getUserMedia({ audio: { echoCancellation: true, noiseSuppression: true } });
    } catch {
      notify.error(voiceTexts.micDeniedTitle, voiceTexts.micDenied);
      return fail(voiceTexts.micDenied);
    }
    if (live.current.ended) return release();
    const context = new AudioContext();
    audioContext.current = context;
    const gain = context.createGain();
    gain.gain.value = live.current.speakerOn ? 1 : 0;
    gain.connect(context.destination);
    speaker.current = gain;
    // Created after the microphone prompt, the audio may be refused by the browser's autoplay rules.
    ensurePlayback();
    setStatus('active');
    clock.current = window.setInterval(() => {
      live.current.seconds += 1;
      setSeconds(live.current.seconds);
    }, 1000);
    record();
    const speculate = pauseMs > 0 && pauseMs < silenceMs;
    stopWatching.current = watchVoiceActivity(context, stream.current, {
      silenceMs,
      pauseMs,
      onSpeechStart: speechStarted,
      onSpeechEnd: speechEnded,
      ...(speculate ? { onPause: speechPaused, onResume: speechResumed } : {}),
    });
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [openChatId, silenceMs, pauseMs]);

  const hangUp = useCallback(() => {
    if (live.current.ended) return;
    live.current.ended = true;
    release();
    const duration = live.current.seconds;
    setEndedAfter(duration);
    setSeconds(0);
    setStatus('ended');
    if (duration > summaryAfterSeconds && live.current.hadSpeech) notify.info(voiceTexts.summaryTitle, voiceTexts.summaryBody);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  const toggleMute = () => {
    const next = !live.current.muted;
    if (next) {
      // Muting sends what was said so far; nothing more is heard until unmuted.
      const current = recording.current;
      if (current?.speech) speechEnded(performance.now());
      else if (current) discard(current);
      if (recording.current) discard(recording.current);
    }
    live.current.muted = next;
    setMuted(next);
    if (!next && !recording.current) record();
  };

  const toggleSpeaker = () => {
    const next = !live.current.speakerOn;
    live.current.speakerOn = next;
    setSpeakerOn(next);
    if (speaker.current) speaker.current.gain.value = next ? 1 : 0;
  };

  useEffect(
    () => () => {
      live.current.ended = true;
      release();
    },
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [],
  );

  return { status, phase, youSaid, coachSaid, seconds, endedAfter, muted, speakerOn, notice, chatId, start, hangUp, toggleMute, toggleSpeaker };
}
