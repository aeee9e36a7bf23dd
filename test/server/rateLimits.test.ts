import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/server/config.js';
import { databaseTarget } from '../../src/server/db/embedded.js';
import { createRateLimits, RateLimitError, type RateLimits } from '../../src/server/features/limits/rateLimits.js';
import { freshDatabase } from '../helpers/database.js';

// On PostgreSQL the limits share one table of the rate-limit library's, which each instance makes
// when it starts if it is not there. Instances started together on an empty database raced on
// making it, and one of them failed to start ('type "rate_limit" already exists').
describe.runIf(Boolean(process.env.DATABASE_URL))('rate limits on a fresh PostgreSQL', () => {
  it('are made by instances starting together, and counted once for all of them', async () => {
    for (let round = 0; round < 4; round++) {
      const database = await freshDatabase({ empty: true });
      const config = loadConfig({
        PORT: '0',
        HOST: '127.0.0.1',
        DATA_DIR: database.dataDir,
        DATABASE_URL: database.databaseUrl,
        SESSION_SECRET: 'test-session-secret-that-is-long-enough-0123456789',
        DEMO_MODE: 'false',
        RATE_LIMIT_LOGIN_PER_USERNAME: '2',
      });
      const started = await Promise.allSettled(Array.from({ length: 6 }, () => createRateLimits(config, databaseTarget(config))));
      const instances = started.flatMap((result) => (result.status === 'fulfilled' ? [result.value] : []));
      try {
        expect(started.filter((result) => result.status === 'rejected').map((result) => String((result as PromiseRejectedResult).reason))).toEqual([]);
        // Two attempts for a username on any instances, then every instance refuses the third.
        const [first, second, third] = instances as [RateLimits, RateLimits, RateLimits];
        await first.loginPerUsername.consume(`user_${round}`);
        await second.loginPerUsername.consume(`user_${round}`);
        await expect(third.loginPerUsername.consume(`user_${round}`)).rejects.toBeInstanceOf(RateLimitError);
      } finally {
        await Promise.all(instances.map((instance) => instance.close()));
        await database.dispose();
      }
    }
  });
});
