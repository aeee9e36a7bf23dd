import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { defineConfig, devices } from '@playwright/test';

// Two real servers on fresh embedded databases: one in demo mode (with an access key), one with
// demo mode off. Tests drive Debian's Chromium (Playwright cannot download browsers here).
const runDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ai-coach-e2e-'));
const chromium = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export const ports = { demo: 4310, noDemo: 4311, slowModel: 4312, failingModel: 4313, slowFake: 4320, failingFake: 4321 } as const;
export const e2eAccessKey = 'e2e-access-key-0123456789';

function server(name: string, port: number, env: Record<string, string>) {
  return {
    command: 'npx tsx src/server/main.ts',
    url: `http://127.0.0.1:${port}/readyz`,
    reuseExistingServer: false,
    timeout: 60_000,
    stdout: 'ignore' as const,
    stderr: 'pipe' as const,
    env: {
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: path.join(runDir, name),
      DATABASE_URL: '',
      LOG_LEVEL: 'warn',
      SESSION_SECRET: 'e2e-session-secret-long-enough-0123456789abcdef',
      OPENAI_API_KEY: '',
      ...env,
    },
  };
}

// A fake OpenAI server (test/fakes/openai-cli.ts) for the apps that run with a model we control.
function fakeModel(port: number, args: string) {
  return {
    command: `npx tsx test/fakes/openai-cli.ts --port ${port} ${args}`,
    url: `http://127.0.0.1:${port}/v1/models`,
    reuseExistingServer: false,
    timeout: 30_000,
    stdout: 'ignore' as const,
    stderr: 'pipe' as const,
  };
}

function modelEnv(fakePort: number) {
  return { DEMO_MODE: 'true', OPENAI_API_KEY: 'test-key', OPENAI_BASE_URL: `http://127.0.0.1:${fakePort}/v1` };
}

export default defineConfig({
  testDir: 'test/e2e',
  fullyParallel: true,
  workers: 2,
  retries: process.env.CI ? 1 : 0,
  timeout: 30_000,
  expect: { timeout: 7_000 },
  // CI also writes a JSON report (.ci/run sums the reports into one closing line).
  reporter: process.env.CI_REPORT_DIR
    ? [['list'], ['json', { outputFile: path.join(process.env.CI_REPORT_DIR, 'playwright.json') }]]
    : [['list']],
  use: {
    ...devices['Desktop Chrome'],
    trace: 'retain-on-failure',
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
    { name: 'demo', testIgnore: /\.(nodemo|slowmodel|failmodel)\.spec\.ts$/, use: { baseURL: `http://127.0.0.1:${ports.demo}` } },
    { name: 'no-demo', testMatch: /\.nodemo\.spec\.ts$/, use: { baseURL: `http://127.0.0.1:${ports.noDemo}` } },
    // A model that streams slowly (stop mid-reply) and one that always fails (the error toast).
    { name: 'slow-model', testMatch: /\.slowmodel\.spec\.ts$/, use: { baseURL: `http://127.0.0.1:${ports.slowModel}` } },
    { name: 'failing-model', testMatch: /\.failmodel\.spec\.ts$/, use: { baseURL: `http://127.0.0.1:${ports.failingModel}` } },
  ],
  webServer: [
    server('demo', ports.demo, { DEMO_MODE: 'true', ACCESS_KEY: e2eAccessKey }),
    server('no-demo', ports.noDemo, { DEMO_MODE: 'false' }),
    fakeModel(ports.slowFake, '--token-delay-ms 80 --tokens 400'),
    server('slow-model', ports.slowModel, modelEnv(ports.slowFake)),
    fakeModel(ports.failingFake, '--status 500'),
    server('failing-model', ports.failingModel, modelEnv(ports.failingFake)),
  ],
});
