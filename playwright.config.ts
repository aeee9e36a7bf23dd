import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { defineConfig, devices } from '@playwright/test';
import { testCertificates } from './test/fakes/tls.js';
import { pausingMicrophoneFile, voiceReply } from './test/e2e/support/fakeMicrophone';

// Real servers on fresh embedded databases: one in demo mode (with an access key), one with demo
// mode off, and one per set of fakes below. Tests drive Debian's Chromium (Playwright cannot download browsers here).
// Loading this file runs no program and does no slow work (every worker loads it again): it names
// paths, and test/e2e/support/globalSetup.ts prepares files. The run's directory is made once, by
// the runner, and handed to the workers through the environment they inherit.
process.env.E2E_RUN_DIR ||= fs.mkdtempSync(path.join(os.tmpdir(), 'ai-coach-e2e-'));
const runDir = process.env.E2E_RUN_DIR;
const chromium = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

// E2E_PORT_BASE moves every port at once, so two checkouts can run their suites side by side.
const base = Number(process.env.E2E_PORT_BASE ?? 4310);
export const ports = {
  demo: base,
  noDemo: base + 1,
  slowModel: base + 2,
  failingModel: base + 3,
  slowFake: base + 10,
  failingFake: base + 11,
  microsoft: base + 20,
  graphFake: base + 21,
  entraFake: base + 22,
  microsoftExpiry: base + 23,
  graphFakeExpiry: base + 24,
  entraFakeExpiry: base + 25,
  styleMail: base + 40,
  meetings: base + 50,
  graphFakeMeetings: base + 51,
  entraFakeMeetings: base + 52,
  meetingsControl: base + 53,
  styleGraph: base + 41,
  voice: base + 4,
  voiceFake: base + 12,
  twilioFake: base + 13,
  launcher: base + 9,
} as const;
export const e2eAccessKey = 'e2e-access-key-0123456789';

// What test/e2e/support/launchServers.mjs starts: a command, the URL that answers once it is up,
// how long it may take, and its environment (added to the runner's).
type E2EServer = { name: string; command: string; url: string; timeout: number; env?: Record<string, string> };

// The apps run as `npm start` runs them: the compiled server (`npm test` builds before the e2e
// tests; run `npm run build` first when running them alone), which also starts each fresh data
// directory from the build's migrated cluster instead of creating one.
function server(name: string, port: number, env: Record<string, string>): E2EServer {
  return {
    name,
    command: 'node dist/server/main.js',
    url: `http://127.0.0.1:${port}/readyz`,
    timeout: 180_000,
    env: {
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: path.join(runDir, name),
      DATABASE_URL: '',
      LOG_LEVEL: 'warn',
      SESSION_SECRET: 'e2e-session-secret-long-enough-0123456789abcdef',
      OPENAI_API_KEY: '',
      // Every e2e visitor comes from 127.0.0.1: the per-address budgets are tested by the server tests.
      RATE_LIMIT_REGISTER_PER_HOUR: '0',
      RATE_LIMIT_CHAT_PER_MINUTE: '0',
      // Every e2e context is a new demo visitor from 127.0.0.1: each first write makes a guest space.
      RATE_LIMIT_GUEST_PER_HOUR: '0',
      ...env,
    },
  };
}

// A fake OpenAI server (test/fakes/openai-cli.ts) for the apps that run with a model we control.
function fakeModel(name: string, port: number, args: string): E2EServer {
  return {
    name,
    command: `node --import tsx test/fakes/openai-cli.ts --port ${port} ${args}`,
    url: `http://127.0.0.1:${port}/v1/models`,
    timeout: 60_000,
  };
}

function modelEnv(fakePort: number) {
  return { DEMO_MODE: 'true', OPENAI_API_KEY: 'test-key', OPENAI_BASE_URL: `http://127.0.0.1:${fakePort}/v1` };
}

// The Microsoft fakes serve https with the committed test certificate; the apps trust its authority.
const tls = testCertificates();
function microsoftFakes(name: string, graphPort: number, entraPort: number, args: string): E2EServer {
  return {
    name,
    command: `node --import tsx test/fakes/microsoft-cli.ts --graph-port ${graphPort} --entra-port ${entraPort} ${args}`,
    url: `https://localhost:${graphPort}/v1.0/me`,
    timeout: 120_000,
    env: { TEST_TLS_DIR: tls.dir },
  };
}
function microsoftEnv(graphPort: number, entraPort: number) {
  return {
    DEMO_MODE: 'false',
    NODE_EXTRA_CA_CERTS: tls.caFile,
    MICROSOFT_CLIENT_ID: 'e2e-client',
    MICROSOFT_AUTHORITY_HOST: `https://localhost:${entraPort}`,
    MICROSOFT_GRAPH_BASE_URL: `https://localhost:${graphPort}/v1.0`,
  };
}

// Writing style with Microsoft mail: the https Graph fake seeded with the sent-mail corpus
// (test/fakes/graph/seeded-cli.ts) and an app in demo mode that trusts the fakes' certificates.
const styleGraph: E2EServer = {
  name: 'style-graph-fake',
  command: `node --import tsx test/fakes/graph/seeded-cli.ts --port ${ports.styleGraph}`,
  url: `https://127.0.0.1:${ports.styleGraph}/v1.0/me`,
  timeout: 60_000,
  env: { TEST_TLS_DIR: tls.dir },
};
// The voice project's microphone: Chromium plays this WAV as its input (written by the global
// setup from the committed recording: test/e2e/support/fake-microphone.md).
const fakeMicrophone = path.join(runDir, 'fake-microphone.wav');
process.env.E2E_FAKE_MICROPHONE = fakeMicrophone;
const voiceLaunchArgs = ['--use-fake-ui-for-media-stream', '--use-fake-device-for-media-stream', `--use-file-for-fake-audio-capture=${fakeMicrophone}`, '--autoplay-policy=no-user-gesture-required'];
/** Chromium's arguments for the microphone that pauses halfway through its sentence (a test's own browser). */
export const pausingMicrophoneLaunchArgs = ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', ...voiceLaunchArgs.map((arg) => arg.replace(fakeMicrophone, pausingMicrophoneFile(fakeMicrophone)))];

function e2eServers(): E2EServer[] {
  // The fakes first: they start in a second or two, and each app finds its fakes up.
  return [
    fakeModel('slow-model-fake', ports.slowFake, '--token-delay-ms 80 --tokens 400'),
    fakeModel('failing-model-fake', ports.failingFake, '--status 500'),
    microsoftFakes('microsoft-fakes', ports.graphFake, ports.entraFake, '--approve-after-polls 2 --seed-meetings'),
    microsoftFakes('microsoft-expiry-fakes', ports.graphFakeExpiry, ports.entraFakeExpiry, '--approve-after-polls 0 --device-code-lifetime 4'),
    microsoftFakes('meetings-fakes', ports.graphFakeMeetings, ports.entraFakeMeetings, `--approve-after-polls 2 --shared-mailbox --access-token-lifetime 120 --page-size 2 --control-port ${ports.meetingsControl}`),
    styleGraph,
    // Each spoken sentence lasts 3 s: the fake microphone speaks again while the coach still speaks.
    fakeModel('voice-model-fake', ports.voiceFake, `--reply "${voiceReply}" --speech-ms 3000 --speech-chunks 6`),
    { name: 'twilio-fake', command: `node --import tsx test/fakes/twilio-cli.ts --port ${ports.twilioFake}`, url: `http://127.0.0.1:${ports.twilioFake}/healthz`, timeout: 60_000 },
    server('demo', ports.demo, { DEMO_MODE: 'true', ACCESS_KEY: e2eAccessKey }),
    // e2e-admin is the organisation's admin (admin.nodemo.spec.ts).
    server('no-demo', ports.noDemo, { DEMO_MODE: 'false', ORG_ADMINS: 'e2e-admin' }),
    server('slow-model', ports.slowModel, modelEnv(ports.slowFake)),
    server('failing-model', ports.failingModel, modelEnv(ports.failingFake)),
    server('microsoft', ports.microsoft, microsoftEnv(ports.graphFake, ports.entraFake)),
    server('microsoft-expiry', ports.microsoftExpiry, microsoftEnv(ports.graphFakeExpiry, ports.entraFakeExpiry)),
    server('meetings', ports.meetings, microsoftEnv(ports.graphFakeMeetings, ports.entraFakeMeetings)),
    server('style-mail', ports.styleMail, { DEMO_MODE: 'true', MICROSOFT_GRAPH_BASE_URL: `https://localhost:${ports.styleGraph}/v1.0`, NODE_EXTRA_CA_CERTS: tls.caFile }),
    server('voice', ports.voice, {
      ...modelEnv(ports.voiceFake),
      TWILIO_ACCOUNT_SID: `AC${'0123456789abcdef'.repeat(2)}`,
      TWILIO_AUTH_TOKEN: 'fake-twilio-auth-token-0123456789',
      TWILIO_PHONE_NUMBER: '+15550001111',
      TWILIO_API_BASE_URL: `http://127.0.0.1:${ports.twilioFake}`,
      PUBLIC_URL: 'https://coach.example.com',
    }),
  ];
}

// E2E_ONLY=demo,slow-model,slow-model-fake starts only the servers so named, for a developer who
// runs one project's specs (`E2E_ONLY=demo npx playwright test --project=demo first-hour`): the
// seventeen together are most of a small machine's CPU for a minute. Unset, every server starts.
function selectedServers(): E2EServer[] {
  const only = (process.env.E2E_ONLY ?? '').split(',').map((name) => name.trim()).filter(Boolean);
  const all = e2eServers();
  if (!only.length) return all;
  const unknown = only.filter((name) => !all.some((s) => s.name === name));
  if (unknown.length) throw new Error(`E2E_ONLY names no server: ${unknown.join(', ')} (servers: ${all.map((s) => s.name).join(', ')})`);
  return all.filter((s) => only.includes(s.name));
}

export default defineConfig({
  testDir: 'test/e2e',
  globalSetup: './test/e2e/support/globalSetup.ts',
  fullyParallel: true,
  workers: Number(process.env.E2E_WORKERS ?? 2),
  retries: process.env.CI ? 1 : 0,
  // A test that passed only on its retry fails the run in CI (and the reporter names it flaky).
  failOnFlakyTests: Boolean(process.env.CI),
  // Generous waits: these tests check what a user sees and can do, not how fast (bench/ does). On
  // this 2-core kind of machine, with two workers and the seventeen servers and fakes above, a cold
  // first visit to /app has taken over 7 s to draw its sidebar and onboarding dialog (2.4 s when
  // the machine is quiet).
  timeout: 60_000,
  expect: { timeout: 15_000 },
  // CI also writes a JSON report (.ci/run sums the reports into one closing line).
  reporter: process.env.CI_REPORT_DIR
    ? [['list'], ['json', { outputFile: path.join(process.env.CI_REPORT_DIR, 'playwright.json') }]]
    : [['list']],
  use: {
    ...devices['Desktop Chrome'],
    // Recording a trace for every test cost about a quarter of the suite's CPU (chat and goals specs:
    // 208 s against 159 s): CI records it for a test's retry, locally for every test and keeps the failed.
    trace: process.env.CI ? 'on-first-retry' : 'retain-on-failure',
    screenshot: 'only-on-failure',
    launchOptions: {
      executablePath: chromium,
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
      ],
    },
  },
  projects: [
    { name: 'demo', testIgnore: /\.(nodemo|slowmodel|failmodel|microsoft|msexpiry|stylemail|voice|meetings)\.spec\.ts$/, use: { baseURL: `http://127.0.0.1:${ports.demo}` } },
    { name: 'no-demo', testMatch: /\.nodemo\.spec\.ts$/, use: { baseURL: `http://127.0.0.1:${ports.noDemo}` } },
    // A model that streams slowly (stop mid-reply) and one that always fails (the error toast).
    { name: 'slow-model', testMatch: /\.slowmodel\.spec\.ts$/, use: { baseURL: `http://127.0.0.1:${ports.slowModel}` } },
    { name: 'failing-model', testMatch: /\.failmodel\.spec\.ts$/, use: { baseURL: `http://127.0.0.1:${ports.failingModel}` } },
    // Microsoft 365 against the Graph and Entra ID fakes; device codes expire after 4 s in the second.
    { name: 'microsoft', testMatch: /\.microsoft\.spec\.ts$/, use: { baseURL: `http://127.0.0.1:${ports.microsoft}` } },
    { name: 'microsoft-expiry', testMatch: /\.msexpiry\.spec\.ts$/, use: { baseURL: `http://127.0.0.1:${ports.microsoftExpiry}` } },
    // Meetings: one shared calendar, tokens that expire at once, pages of 2, a control port.
    { name: 'meetings', testMatch: /\.meetings\.spec\.ts$/, use: { baseURL: `http://127.0.0.1:${ports.meetings}` } },
    { name: 'style-mail', testMatch: /\.stylemail\.spec\.ts$/, use: { baseURL: `http://127.0.0.1:${ports.styleMail}` } },
    // A fake microphone, a fake OpenAI (speech too) and a fake Twilio behind the voice server.
    {
      name: 'voice',
      testMatch: /\.voice\.spec\.ts$/,
      use: {
        baseURL: `http://127.0.0.1:${ports.voice}`,
        permissions: ['microphone'],
        launchOptions: { executablePath: chromium, args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', ...voiceLaunchArgs] },
      },
    },
  ],
  // One entry: test/e2e/support/launchServers.mjs starts every server below, a few at a time, and
  // answers its /ready once all of them answer (Playwright would start them one after another).
  webServer: {
    command: 'node test/e2e/support/launchServers.mjs',
    url: `http://127.0.0.1:${ports.launcher}/ready`,
    reuseExistingServer: false,
    timeout: 300_000,
    stdout: 'ignore',
    stderr: 'pipe',
    env: { E2E_LAUNCHER_PORT: String(ports.launcher), E2E_SERVERS: JSON.stringify(selectedServers()) },
  },
});
