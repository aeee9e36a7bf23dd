import path from 'node:path';
import { defineConfig } from 'vitest/config';

// CI also writes a JSON report (.ci/run sums the reports into one closing line).
const reportDir = process.env.CI_REPORT_DIR;

// Server tests only: the client's Vite plugins stay out of them.
export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/server/**/*.test.ts', 'eval/**/*.test.ts'],
    environment: 'node',
    globalSetup: ['test/setup/tls.ts', 'test/setup/databaseTemplate.ts'],
    setupFiles: ['test/setup/passwordCost.ts'],
    pool: 'forks',
    testTimeout: 20_000,
    hookTimeout: 60_000,
    fileParallelism: true,
    maxWorkers: 2,
    reporters: reportDir ? ['default', 'json'] : ['default'],
    outputFile: reportDir ? { json: path.join(reportDir, `vitest-${process.env.CI_REPORT_NAME ?? 'run'}.json`) } : undefined,
  },
});
