import { defineConfig } from 'vitest/config';

// Server tests only: the client's Vite plugins stay out of them.
export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/server/**/*.test.ts'],
    environment: 'node',
    pool: 'forks',
    testTimeout: 20_000,
    hookTimeout: 60_000,
    fileParallelism: true,
    maxWorkers: 2,
  },
});
