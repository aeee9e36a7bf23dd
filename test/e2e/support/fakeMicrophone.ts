import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

// The fake microphone's recording: the committed fixture fake-microphone-speech.wav (this sentence
// spoken once by espeak-ng; how, in fake-microphone.md), padded here with half a second of silence
// before and two seconds after (Chromium loops the file, so the coach hears a turn, a pause, and
// the turn again). No program runs at test time.
export const spokenSentence = 'I want to prepare for a difficult conversation with my manager.';

/** What the voice project's fake model answers. */
export const voiceReply = 'Start by naming the outcome you want. Then plan your first sentence.';

export const fakeMicrophoneSpeech = path.join(path.dirname(fileURLToPath(import.meta.url)), 'fake-microphone-speech.wav');

type Pcm = { channels: number; sampleRate: number; bitsPerSample: number; data: Buffer };

/** The PCM samples of a WAV file (RIFF chunks walked, so extra chunks do not matter). */
export function readPcmWav(wav: Buffer): Pcm {
  if (wav.toString('ascii', 0, 4) !== 'RIFF' || wav.toString('ascii', 8, 12) !== 'WAVE') throw new Error('not a RIFF/WAVE file');
  let format: Omit<Pcm, 'data'> | undefined;
  for (let at = 12; at + 8 <= wav.length; ) {
    const id = wav.toString('ascii', at, at + 4);
    const size = wav.readUInt32LE(at + 4);
    const body = wav.subarray(at + 8, at + 8 + size);
    if (id === 'fmt ') {
      if (body.readUInt16LE(0) !== 1) throw new Error('not PCM');
      format = { channels: body.readUInt16LE(2), sampleRate: body.readUInt32LE(4), bitsPerSample: body.readUInt16LE(14) };
    } else if (id === 'data') {
      if (!format) throw new Error('data before fmt');
      return { ...format, data: body };
    }
    at += 8 + size + (size % 2);
  }
  throw new Error('no data chunk');
}

export function pcmWav({ channels, sampleRate, bitsPerSample, data }: Pcm): Buffer {
  const header = Buffer.alloc(44);
  const blockAlign = (channels * bitsPerSample) / 8;
  header.write('RIFF', 0, 'ascii');
  header.writeUInt32LE(36 + data.byteLength, 4);
  header.write('WAVEfmt ', 8, 'ascii');
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20);
  header.writeUInt16LE(channels, 22);
  header.writeUInt32LE(sampleRate, 24);
  header.writeUInt32LE(sampleRate * blockAlign, 28);
  header.writeUInt16LE(blockAlign, 32);
  header.writeUInt16LE(bitsPerSample, 34);
  header.write('data', 36, 'ascii');
  header.writeUInt32LE(data.byteLength, 40);
  return Buffer.concat([header, data]);
}

/**
 * Writes the microphone's looping recording to `file`: silence, the sentence, a longer silence.
 * With `pauseSeconds`, the sentence stops halfway for that long (longer than the call's speculative
 * pause, shorter than the silence that ends a turn: the user draws breath and goes on).
 */
export function writeFakeMicrophoneWav(file: string, options: { pauseSeconds?: number } = {}): string {
  const speech = readPcmWav(fs.readFileSync(fakeMicrophoneSpeech));
  const bytesPerSecond = (speech.sampleRate * speech.channels * speech.bitsPerSample) / 8;
  const silence = (seconds: number) => Buffer.alloc(Math.round(bytesPerSecond * seconds));
  const blockAlign = (speech.channels * speech.bitsPerSample) / 8;
  const half = Math.floor(speech.data.length / 2 / blockAlign) * blockAlign;
  const spoken = options.pauseSeconds ? [speech.data.subarray(0, half), silence(options.pauseSeconds), speech.data.subarray(half)] : [speech.data];
  const data = Buffer.concat([silence(0.5), ...spoken, silence(2)]);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, pcmWav({ ...speech, data }));
  return file;
}

/** The microphone that pauses halfway through the sentence, beside the plain one. */
export const pausingMicrophoneFile = (plain: string) => plain.replace(/\.wav$/, '-pausing.wav');
export const pausingMicrophonePauseSeconds = 0.45;
