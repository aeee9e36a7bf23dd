import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { defineConfig, devices } from '@playwright/test';

// Two real servers on fresh embedded databases: one in demo mode (with an access key), one with
// demo mode off. Tests drive Debian's Chromium (Playwright cannot download browsers here).
const runDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ai-coach-e2e-'));
const chromium = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export const ports = { demo: 4310, noDemo: 4311 } as const;
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

export default defineConfig({
  testDir: 'test/e2e',
  fullyParallel: true,
  workers: 2,
  retries: process.env.CI ? 1 : 0,
  timeout: 30_000,
  expect: { timeout: 7_000 },
  reporter: [['list']],
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
    { name: 'demo', testIgnore: /\.nodemo\.spec\.ts$/, use: { baseURL: `http://127.0.0.1:${ports.demo}` } },
    { name: 'no-demo', testMatch: /\.nodemo\.spec\.ts$/, use: { baseURL: `http://127.0.0.1:${ports.noDemo}` } },
  ],
  webServer: [
    server('demo', ports.demo, { DEMO_MODE: 'true', ACCESS_KEY: e2eAccessKey }),
    server('no-demo', ports.noDemo, { DEMO_MODE: 'false' }),
  ],
});
