import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useRef, useState } from 'react';
import { voiceTexts } from '../../../shared/texts';
import { notify } from '../../lib/notify';
import { trpc } from '../../lib/trpc';
import { StreamedSpeech } from './streamedSpeech';
import { fetchSpeech, storeHeard, streamTurn, transcribeRecording, VoiceRequestError } from './voiceApi';
import { defaultSilenceMs, watchVoiceActivity } from './voiceActivity';

// The browser voice call of SPEC section 4, streamed and interruptible (issue 25): connecting,
// then active once the microphone is granted (disconnected on denial). The microphone listens the
// whole call, the coach speaking or not. A turn ends after `silenceMs` of silence; it is
// transcribed, and the coach's reply is shown and spoken sentence by sentence while it is written.
// Speaking while the coach speaks stops the coach at once and starts a new turn; what was heard of
// the reply is what the chat keeps.

export type CallStatus = 'idle' | 'connecting' | 'active' | 'disconnected' | 'ended';
export type TurnPhase = 'listening' | 'recording' | 'processing' | 'speaking';

export const autoStartMs = 1000;
export const summaryAfterSeconds = 30;
/** A recording nobody speaks into is started afresh, so it never grows without end. */
const maxRecordingMs = 30_000;

export function formatDuration(seconds: number): string {
  return `${String(Math.floor(seconds / 60)).padStart(2, '0')}:${String(seconds % 60).padStart(2, '0')}`;
}

type Recording = { media: MediaRecorder; chunks: Blob[]; speech: boolean; limit: number };
type Turn = { speech: StreamedSpeech; heard: string | null };

/**
 * A browser voice call. `openChatId` is the chat the call was opened from: its earlier messages
 * are the coach's context and the call's turns are saved into it. Without one, the first turn
 * starts a chat of its own.
 */
export function useVoiceCall(openChatId: number | null = null, options: { silenceMs?: number } = {}) {
  const queryClient = useQueryClient();
  const silenceMs = options.silenceMs ?? defaultSilenceMs;
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
  const aborter = useRef<AbortController | null>(null);
  const clock = useRef<number | null>(null);

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

  /** The pause after speech: the turn is sent, and the microphone goes on listening. */
  const speechEnded = (lastVoicedAt: number) => {
    const current = recording.current;
    if (live.current.ended || live.current.muted || !current?.speech) return;
    // The speech's real end, and the end of the turn (after the silence): bench:voice measures from both.
    performance.mark('voice:user-speech-end', { startTime: lastVoicedAt });
    performance.mark('voice:turn-end');
    window.clearTimeout(current.limit);
    recording.current = null;
    current.media.onstop = () => void respond(new Blob(current.chunks, { type: current.media.mimeType || 'audio/webm' }));
    current.media.stop();
    record();
  };

  const respond = async (audio: Blob) => {
    const controller = aborter.current;
    if (!controller || live.current.ended) return;
    if (!turn.current) setPhase('processing');
    let text: string;
    try {
      text = (await transcribeRecording(audio, controller.signal)).trim();
    } catch (error) {
      if (controller.signal.aborted) return;
      if (error instanceof VoiceRequestError && error.status === 412) return fail(error.message);
      notify.error(voiceTexts.transcriptionErrorTitle, error instanceof VoiceRequestError && error.status === 429 ? error.message : voiceTexts.transcriptionError);
      if (!turn.current) setPhase('listening');
      return;
    }
    if (live.current.ended || !text) {
      if (!turn.current) setPhase('listening');
      return;
    }
    await previous.current;
    if (live.current.ended) return;
    live.current.hadSpeech = true;
    setYouSaid(text);
    setCoachSaid('');
    const context = audioContext.current!;
    const current: Turn = {
      heard: null,
      speech: new StreamedSpeech(context, speaker.current!, fetchSpeech, {
        onFirstAudio: () => {
          performance.mark('voice:first-audio');
          if (turn.current === current && current.heard === null) setPhase('speaking');
        },
        onError: () => notify.error(voiceTexts.synthesisErrorTitle, voiceTexts.synthesisError),
      }),
    };
    turn.current = current;
    let written = '';
    const saved = streamTurn(
      { chatId: live.current.chatId, text },
      (token) => {
        written += token;
        setCoachSaid(written);
        if (current.heard === null) current.speech.write(token);
      },
      controller.signal,
    );
    previous.current = saved.then(
      () => {},
      () => {},
    );
    try {
      const result = await saved;
      if (live.current.chatId !== result.chatId && result.chatId !== null) {
        live.current.chatId = result.chatId;
        setChatId(result.chatId);
      }
      void queryClient.invalidateQueries({ queryKey: trpc.chats.list.queryKey() });
      if (current.heard === null) {
        current.speech.end();
        await current.speech.played;
      }
      // Interrupted: the chat keeps what was heard.
      if (current.heard !== null && result.messageId !== null) {
        setCoachSaid(current.heard);
        await storeHeard(result.messageId, current.heard).catch(() => {});
        void queryClient.invalidateQueries({ queryKey: trpc.chats.list.queryKey() });
      }
    } catch (error) {
      if (controller.signal.aborted) return;
      current.speech.stop();
      notify.error(voiceTexts.aiErrorTitle, error instanceof Error ? error.message : voiceTexts.aiError);
    } finally {
      if (turn.current === current) {
        turn.current = null;
        if (!live.current.ended && !recording.current?.speech) setPhase('listening');
      }
    }
  };

  const release = () => {
    if (clock.current !== null) window.clearInterval(clock.current);
    clock.current = null;
    aborter.current?.abort();
    aborter.current = null;
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
    aborter.current = new AbortController();
    setStatus('active');
    clock.current = window.setInterval(() => {
      live.current.seconds += 1;
      setSeconds(live.current.seconds);
    }, 1000);
    record();
    stopWatching.current = watchVoiceActivity(context, stream.current, { silenceMs, onSpeechStart: speechStarted, onSpeechEnd: speechEnded });
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [openChatId, silenceMs]);

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
