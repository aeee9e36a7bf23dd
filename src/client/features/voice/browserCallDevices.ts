import { notify } from '../../lib/notify';
import { StreamedSpeech } from './streamedSpeech';
import { watchVoiceActivity } from './voiceActivity';
import { fetchSpeech, keepTurn, storeHeard, streamTurn } from './voiceApi';
import type { CallAudio, CallRecording, Microphone, VoiceCallDeps } from './voiceCallSession';

// What a VoiceCallSession talks to in the browser: getUserMedia and MediaRecorder, Web Audio (the
// speaker, the voice activity on the microphone, the streamed speech), the voice REST calls,
// window timers, performance marks, the app's toasts and a click on the page.

/** A MediaRecorder on the microphone, encoding in 100 ms chunks. */
function recorder(stream: MediaStream, onError: () => void): CallRecording {
  const media = MediaRecorder.isTypeSupported('audio/webm') ? new MediaRecorder(stream, { mimeType: 'audio/webm' }) : new MediaRecorder(stream);
  const chunks: Blob[] = [];
  const whole = () => new Blob(chunks, { type: media.mimeType || 'audio/webm' });
  media.ondataavailable = (event) => {
    if (event.data.size) chunks.push(event.data);
  };
  media.onerror = onError;
  media.start(100);
  return {
    snapshot: () =>
      new Promise<Blob>((resolve) => {
        // After ondataavailable (registered first), so the flushed chunk is in.
        media.addEventListener('dataavailable', () => resolve(whole()), { once: true });
        media.requestData();
      }),
    finish: () =>
      new Promise<Blob>((resolve) => {
        media.onstop = () => resolve(whole());
        media.stop();
      }),
    stop: () => {
      media.onstop = null;
      media.stop();
    },
    discard: () => {
      media.ondataavailable = null;
      media.onstop = null;
      if (media.state !== 'inactive') media.stop();
    },
  };
}

function connectAudio(stream: MediaStream, speakerOn: boolean): CallAudio {
  const context = new AudioContext();
  const speaker = context.createGain();
  speaker.gain.value = speakerOn ? 1 : 0;
  speaker.connect(context.destination);
  return {
    get state() {
      return context.state;
    },
    resume: () => context.resume(),
    close: () => context.close(),
    setSpeakerOn: (on) => {
      speaker.gain.value = on ? 1 : 0;
    },
    watchVoice: (options) => watchVoiceActivity(context, stream, options),
    speak: (fetch, events) => new StreamedSpeech(context, speaker, fetch, events),
  };
}

async function openMicrophone(): Promise<Microphone> {
  const stream = await navigator.mediaDevices.getUserMedia({ audio: { echoCancellation: true, noiseSuppression: true } });
  return {
    record: (onError) => recorder(stream, onError),
    connectAudio: (speakerOn) => connectAudio(stream, speakerOn),
    close: () => {
      for (const track of stream.getTracks()) track.stop();
    },
  };
}

export function browserCallDevices(chatsChanged: () => void): VoiceCallDeps {
  return {
    microphone: {
      supported: () => Boolean(navigator.mediaDevices?.getUserMedia) && typeof MediaRecorder !== 'undefined',
      open: openMicrophone,
    },
    requests: { streamTurn, keepTurn, storeHeard, fetchSpeech },
    clock: {
      now: () => performance.now(),
      setTimeout: (run, ms) => window.setTimeout(run, ms),
      clearTimeout: (id) => window.clearTimeout(id),
      setInterval: (run, ms) => window.setInterval(run, ms),
      clearInterval: (id) => window.clearInterval(id),
    },
    notify,
    mark: (name, startTime) => void performance.mark(name, startTime === undefined ? undefined : { startTime }),
    chatsChanged,
    onNextClick: (run) => {
      document.addEventListener('pointerdown', run, { capture: true, once: true });
      return () => document.removeEventListener('pointerdown', run, { capture: true });
    },
  };
}
