// Voice activity detection on the microphone, sampled every 20 ms. Someone speaks when the signal
// is loud enough AND most of its energy lies in the band of the human voice (85 Hz to 3.5 kHz), for
// at least 60 ms: a knock, a hiss or a fan does not start a turn. The turn ends after a pause of
// `silenceMs` (700 ms by default). A shorter pause (`pauseMs`, 150 ms by default) is told first,
// so the call can start its reply speculatively, and so is the voice coming back before the turn
// ended (the speculation is then given up).

export type VoiceActivityOptions = {
  onSpeechStart: () => void;
  /** With the time (performance.now()) the voice was last heard: the real end of the speech. */
  onSpeechEnd: (lastVoicedAt: number) => void;
  /** Loudness (0..1 RMS) above which a sound may be speech. */
  threshold?: number;
  /** Silence after speech that ends the turn. */
  silenceMs?: number;
  /** A shorter pause, with the time the voice was last heard: the turn may be ending. */
  onPause?: (lastVoicedAt: number) => void;
  /** The voice came back after onPause, before the turn ended. */
  onResume?: () => void;
  /** Silence that makes a pause (below silenceMs to mean anything). */
  pauseMs?: number;
};

export const defaultSilenceMs = 700;
export const defaultPauseMs = 150;
const frameMs = 20;
/** Voice must last this long to count: a click or a bump is shorter. */
const onsetMs = 60;
/** Share of the spectrum's energy that must lie in the voice band. */
const voiceBandShare = 0.6;

export function watchVoiceActivity(context: AudioContext, stream: MediaStream, options: VoiceActivityOptions): () => void {
  const source = context.createMediaStreamSource(stream);
  const analyser = context.createAnalyser();
  analyser.fftSize = 1024;
  analyser.smoothingTimeConstant = 0;
  source.connect(analyser);
  const samples = new Float32Array(analyser.fftSize);
  const spectrum = new Float32Array(analyser.frequencyBinCount);
  const binHz = context.sampleRate / analyser.fftSize;
  const low = Math.max(1, Math.floor(85 / binHz));
  const high = Math.min(spectrum.length - 1, Math.ceil(3500 / binHz));
  const threshold = options.threshold ?? 0.015;
  const silenceMs = options.silenceMs ?? defaultSilenceMs;
  const pauseMs = options.pauseMs ?? defaultPauseMs;
  let speaking = false;
  let paused = false;
  let voicedSince = 0;
  let lastVoiced = 0;
  const isVoice = () => {
    analyser.getFloatTimeDomainData(samples);
    let sum = 0;
    for (const sample of samples) sum += sample * sample;
    if (Math.sqrt(sum / samples.length) <= threshold) return false;
    analyser.getFloatFrequencyData(spectrum);
    let band = 0;
    let all = 0;
    for (let i = 1; i < spectrum.length; i++) {
      const power = 10 ** (spectrum[i]! / 10);
      all += power;
      if (i >= low && i <= high) band += power;
    }
    return all > 0 && band / all >= voiceBandShare;
  };
  const timer = window.setInterval(() => {
    const now = performance.now();
    if (isVoice()) {
      lastVoiced = now;
      voicedSince ||= now;
      if (now - voicedSince >= onsetMs) {
        if (!speaking) {
          speaking = true;
          options.onSpeechStart();
        } else if (paused) {
          paused = false;
          options.onResume?.();
        }
      }
    } else {
      voicedSince = 0;
      if (speaking && now - lastVoiced > silenceMs) {
        speaking = false;
        paused = false;
        options.onSpeechEnd(lastVoiced);
      } else if (speaking && !paused && options.onPause && now - lastVoiced > pauseMs) {
        paused = true;
        options.onPause(lastVoiced);
      }
    }
  }, frameMs);
  return () => {
    window.clearInterval(timer);
    source.disconnect();
  };
}
