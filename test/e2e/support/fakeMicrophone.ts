import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

// The fake microphone's recording: a sentence spoken by Debian's espeak-ng, then two seconds of
// silence (Chromium loops the file, so the coach hears a turn, a pause, and the turn again).
export const spokenSentence = 'I want to prepare for a difficult conversation with my manager.';

/** What the voice project's fake model answers. */
export const voiceReply = 'Start by naming the outcome you want. Then plan your first sentence.';

export function makeFakeMicrophoneWav(file: string): string {
  const spoken = `${file}.speech.wav`;
  execFileSync('espeak-ng', ['-v', 'en-us', '-s', '150', '-w', spoken, spokenSentence]);
  const wav = fs.readFileSync(spoken);
  fs.rmSync(spoken);
  // espeak-ng writes a 44-byte PCM header: mono 16-bit at 22050 Hz.
  const sampleRate = wav.readUInt32LE(24);
  const dataOffset = wav.indexOf('data') + 8;
  const speech = wav.subarray(dataOffset);
  const silence = Buffer.alloc(sampleRate * 2 * 2);
  const data = Buffer.concat([silence.subarray(0, sampleRate), speech, silence]);
  const header = Buffer.from(wav.subarray(0, 44));
  header.writeUInt32LE(36 + data.byteLength, 4);
  header.writeUInt32LE(data.byteLength, 40);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, Buffer.concat([header, data]));
  return file;
}
