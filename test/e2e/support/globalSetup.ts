import type { FullConfig } from '@playwright/test';
import { pausingMicrophoneFile, pausingMicrophonePauseSeconds, writeFakeMicrophoneWav } from './fakeMicrophone';

// Playwright's global setup: prepares what the tests need before any browser starts. Loading
// playwright.config.ts only names paths; nothing runs there. (Playwright starts the webServer
// entries before this, so what those need is committed: test/fakes/tls/.)
export default function globalSetup(_config: FullConfig) {
  const file = process.env.E2E_FAKE_MICROPHONE;
  if (!file) throw new Error('E2E_FAKE_MICROPHONE is not set: playwright.config.ts names the fake microphone file');
  try {
    writeFakeMicrophoneWav(file);
    // The same sentence with a breath halfway (the speculative reply given up): voice.voice.spec.ts.
    writeFakeMicrophoneWav(pausingMicrophoneFile(file), { pauseSeconds: pausingMicrophonePauseSeconds });
  } catch (error) {
    throw new Error(`Could not prepare the fake microphone (${file}) from test/e2e/support/fake-microphone-speech.wav: ${(error as Error).message}`);
  }
}
