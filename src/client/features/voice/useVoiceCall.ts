import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useRef, useState } from 'react';
import { voiceTexts } from '../../../shared/texts';
import { notify } from '../../lib/notify';
import { trpc, trpcClient } from '../../lib/trpc';
import { errorMessage } from '../../lib/errors';
import { synthesizeSpeech, transcribeRecording, VoiceRequestError } from './voiceApi';
import { watchVoiceActivity } from './voiceActivity';

// The browser voice call of SPEC section 4: connecting, then active once the microphone is
// granted (disconnected on denial). Loop: record until the user stops speaking, transcribe, ask
// the coach, speak the reply, and listen again 0.5 s after playback unless muted.

export type CallStatus = 'idle' | 'connecting' | 'active' | 'disconnected' | 'ended';
export type TurnPhase = 'listening' | 'recording' | 'processing' | 'speaking';

export const autoStartMs = 1000;
export const restartMs = 500;
export const summaryAfterSeconds = 30;
/** A turn nobody finishes is sent anyway. */
const maxRecordingMs = 30_000;

export function formatDuration(seconds: number): string {
  return `${String(Math.floor(seconds / 60)).padStart(2, '0')}:${String(seconds % 60).padStart(2, '0')}`;
}

/**
 * A browser voice call. `openChatId` is the chat the call was opened from: its earlier messages
 * are the coach's context and the call's turns are saved into it. Without one, the first turn
 * starts a chat of its own.
 */
export function useVoiceCall(openChatId: number | null = null) {
  const queryClient = useQueryClient();
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

  // Live values for the callbacks of the recorder, the analyser and the audio element.
  const live = useRef({ muted: false, speakerOn: true, ended: true, chatId: null as number | null, hadSpeech: false, seconds: 0, busy: false });
  const stream = useRef<MediaStream | null>(null);
  const audioContext = useRef<AudioContext | null>(null);
  const recorder = useRef<MediaRecorder | null>(null);
  const stopWatching = useRef<(() => void) | null>(null);
  const audio = useRef<HTMLAudioElement | null>(null);
  const aborter = useRef<AbortController | null>(null);
  const timers = useRef<number[]>([]);
  const clock = useRef<number | null>(null);

  const later = (fn: () => void, ms: number) => timers.current.push(window.setTimeout(fn, ms));

  const stopRecording = (discard: boolean) => {
    stopWatching.current?.();
    stopWatching.current = null;
    const active = recorder.current;
    recorder.current = null;
    if (active && active.state !== 'inactive') {
      if (discard) {
        active.ondataavailable = null;
        active.onstop = null;
      }
      active.stop();
    }
  };

  const listen = useCallback(() => {
    const mic = stream.current;
    const context = audioContext.current;
    if (!mic || !context || live.current.ended || live.current.muted) return;
    const chunks: Blob[] = [];
    let media: MediaRecorder;
    try {
      media = MediaRecorder.isTypeSupported('audio/webm') ? new MediaRecorder(mic, { mimeType: 'audio/webm' }) : new MediaRecorder(mic);
    } catch {
      notify.error(voiceTexts.recordingErrorTitle, voiceTexts.recordingError);
      return;
    }
    let heardSpeech = false;
    media.ondataavailable = (event) => {
      if (event.data.size) chunks.push(event.data);
    };
    media.onstop = () => {
      // This turn's time limit must not cut a later turn short.
      window.clearTimeout(limit);
      if (live.current.ended || !heardSpeech) return;
      void respond(new Blob(chunks, { type: media.mimeType || 'audio/webm' }));
    };
    media.onerror = () => {
      notify.error(voiceTexts.recordingErrorTitle, voiceTexts.recordingError);
      stopRecording(true);
    };
    recorder.current = media;
    media.start(250);
    setPhase('listening');
    const limit = window.setTimeout(() => {
      if (recorder.current === media) stopRecording(!heardSpeech);
    }, maxRecordingMs);
    timers.current.push(limit);
    stopWatching.current = watchVoiceActivity(context, mic, {
      onSpeechStart: () => {
        heardSpeech = true;
        setPhase('recording');
      },
      onSpeechEnd: () => stopRecording(false),
    });
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  const listenAgain = () =>
    later(() => {
      live.current.busy = false;
      listen();
    }, restartMs);

  const respond = async (recording: Blob) => {
    const controller = new AbortController();
    aborter.current = controller;
    live.current.busy = true;
    setPhase('processing');
    let text: string;
    try {
      text = (await transcribeRecording(recording, controller.signal)).trim();
    } catch (error) {
      if (controller.signal.aborted) return;
      if (error instanceof VoiceRequestError && error.status === 412) return fail(error.message);
      notify.error(voiceTexts.transcriptionErrorTitle, voiceTexts.transcriptionError);
      return listenAgain();
    }
    if (live.current.ended) return;
    if (!text) return listenAgain();
    live.current.hadSpeech = true;
    setYouSaid(text);
    setCoachSaid('');
    let reply: string;
    try {
      const turn = await trpcClient.voice.turn.mutate({ chatId: live.current.chatId, text }, { signal: controller.signal });
      reply = turn.reply;
      if (live.current.chatId !== turn.chatId) {
        live.current.chatId = turn.chatId;
        setChatId(turn.chatId);
      }
      void queryClient.invalidateQueries({ queryKey: trpc.chats.list.queryKey() });
    } catch (error) {
      if (controller.signal.aborted) return;
      notify.error(voiceTexts.aiErrorTitle, errorMessage(error, voiceTexts.aiError));
      return listenAgain();
    }
    if (live.current.ended) return;
    setCoachSaid(reply);
    let speech: Blob;
    try {
      speech = await synthesizeSpeech(reply, controller.signal);
    } catch {
      if (controller.signal.aborted) return;
      notify.error(voiceTexts.synthesisErrorTitle, voiceTexts.synthesisError);
      return listenAgain();
    }
    if (live.current.ended) return;
    await play(speech);
  };

  const play = async (speech: Blob) => {
    const url = URL.createObjectURL(speech);
    const player = new Audio(url);
    player.muted = !live.current.speakerOn;
    audio.current = player;
    setPhase('speaking');
    const done = () => {
      URL.revokeObjectURL(url);
      if (audio.current === player) audio.current = null;
      if (!live.current.ended) listenAgain();
    };
    player.onended = done;
    player.onerror = () => {
      notify.error(voiceTexts.processingErrorTitle, voiceTexts.processingError);
      done();
    };
    try {
      await player.play();
    } catch (error) {
      if ((error as DOMException).name === 'NotAllowedError') {
        notify.error(voiceTexts.playbackBlockedTitle, voiceTexts.playbackBlocked);
      } else {
        notify.error(voiceTexts.processingErrorTitle, voiceTexts.processingError);
      }
      done();
    }
  };

  const release = () => {
    for (const id of timers.current) window.clearTimeout(id);
    timers.current = [];
    if (clock.current !== null) window.clearInterval(clock.current);
    clock.current = null;
    aborter.current?.abort();
    stopRecording(true);
    audio.current?.pause();
    audio.current = null;
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
    live.current = { muted: false, speakerOn: live.current.speakerOn, ended: false, chatId: openChatId, hadSpeech: false, seconds: 0, busy: false };
    setStatus('connecting');
    setNotice(null);
    setYouSaid('');
    setCoachSaid('');
    setSeconds(0);
    setEndedAfter(null);
    setMuted(false);
    setChatId(null);
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
    audioContext.current = new AudioContext();
    setStatus('active');
    clock.current = window.setInterval(() => {
      live.current.seconds += 1;
      setSeconds(live.current.seconds);
    }, 1000);
    listen();
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [listen, openChatId]);

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
    live.current.muted = next;
    setMuted(next);
    if (next) {
      // Muting ends the recording in progress; what was said so far is still answered.
      const media = recorder.current;
      stopWatching.current?.();
      stopWatching.current = null;
      recorder.current = null;
      if (media && media.state !== 'inactive') media.stop();
    } else if (!recorder.current && !live.current.busy) {
      listen();
    }
  };

  const toggleSpeaker = () => {
    const next = !live.current.speakerOn;
    live.current.speakerOn = next;
    setSpeakerOn(next);
    if (audio.current) audio.current.muted = !next;
  };

  useEffect(() => () => {
    live.current.ended = true;
    release();
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  return { status, phase, youSaid, coachSaid, seconds, endedAfter, muted, speakerOn, notice, chatId, start, hangUp, toggleMute, toggleSpeaker };
}
