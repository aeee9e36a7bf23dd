// Voice activity detection on the microphone: the loudness (RMS) of the signal, sampled every
// 50 ms. Speech starts when it rises above the threshold; the turn ends after a pause.

export type VoiceActivityOptions = {
  onSpeechStart: () => void;
  onSpeechEnd: () => void;
  /** Loudness (0..1 RMS) above which someone is speaking. */
  threshold?: number;
  /** Silence after speech that ends the turn. */
  pauseMs?: number;
};

export function watchVoiceActivity(context: AudioContext, stream: MediaStream, options: VoiceActivityOptions): () => void {
  const source = context.createMediaStreamSource(stream);
  const analyser = context.createAnalyser();
  analyser.fftSize = 1024;
  source.connect(analyser);
  const samples = new Float32Array(analyser.fftSize);
  const threshold = options.threshold ?? 0.015;
  const pauseMs = options.pauseMs ?? 900;
  let speaking = false;
  let lastLoud = 0;
  const timer = window.setInterval(() => {
    analyser.getFloatTimeDomainData(samples);
    let sum = 0;
    for (const sample of samples) sum += sample * sample;
    const rms = Math.sqrt(sum / samples.length);
    const now = performance.now();
    if (rms > threshold) {
      lastLoud = now;
      if (!speaking) {
        speaking = true;
        options.onSpeechStart();
      }
    } else if (speaking && now - lastLoud > pauseMs) {
      speaking = false;
      options.onSpeechEnd();
    }
  }, 50);
  return () => {
    window.clearInterval(timer);
    source.disconnect();
  };
}
