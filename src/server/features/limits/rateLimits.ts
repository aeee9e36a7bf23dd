import { TRPCError } from '@trpc/server';
import pg from 'pg';
import {
  RateLimiterMemory,
  RateLimiterPostgres,
  RateLimiterRes,
  type RateLimiterAbstract,
} from 'rate-limiter-flexible';
import { authTexts, coachTexts, limitTexts, phoneTexts } from '../../../shared/texts/index.js';
import type { Config } from '../../config.js';
import type { DatabaseTarget } from '../../db/orm.js';

// Every limit consumes a point before it decides (rate-limiter-flexible's consume is one atomic
// step), so requests in flight together, or batched into one call, count one by one. On
// PostgreSQL the counters live in the database (the library's own table, rate_limit), shared by
// every instance; on the embedded database, which has one server, they live in memory.
export const rateLimitTable = 'rate_limit';

/** A refused request: 429, with the seconds to wait for the Retry-After header. */
export class RateLimitError extends TRPCError {
  constructor(
    message: string,
    readonly retryAfterSeconds: number,
  ) {
    super({ code: 'TOO_MANY_REQUESTS', message });
  }
}

export type Limit = {
  /** Counts one request for `key`; throws RateLimitError when past the limit. */
  consume(key: string): Promise<void>;
  /** Forgets `key`'s count (a successful login clears its username's failures). */
  reset(key: string): Promise<void>;
  /** Gives back the point a request consumed (a successful login is not a failure). */
  refund(key: string): Promise<void>;
};

export type RateLimits = {
  loginPerUsername: Limit;
  loginPerAddress: Limit;
  register: Limit;
  chat: Limit;
  /** Phone calls placed by the coach (POST /api/twilio/voice/call). */
  calls: Limit;
  close(): Promise<void>;
};

const fifteenMinutes = 15 * 60;

/** Calls the coach may place for one user in ten minutes. */
export const phoneCallLimit = { calls: 5, windowSeconds: 600 } as const;

export async function createRateLimits(config: Config, target: DatabaseTarget): Promise<RateLimits> {
  const pool = target.kind === 'postgresql' ? new pg.Pool({ connectionString: target.url, max: 4 }) : undefined;
  pool?.on('error', () => {}); // an idle client's error; the next query reconnects

  async function limiter(keyPrefix: string, points: number, duration: number): Promise<RateLimiterAbstract> {
    if (!pool) return new RateLimiterMemory({ keyPrefix, points, duration });
    return new Promise((resolve, reject) => {
      const created: RateLimiterPostgres = new RateLimiterPostgres(
        { storeClient: pool, storeType: 'pool', tableName: rateLimitTable, keyPrefix, points, duration },
        (error?: unknown) => (error ? reject(error) : resolve(created)),
      );
    });
  }

  async function limit(keyPrefix: string, points: number, duration: number, message: (seconds: number) => string): Promise<Limit> {
    if (points <= 0) return { consume: async () => {}, reset: async () => {}, refund: async () => {} }; // 0 turns it off
    const rl = await limiter(keyPrefix, points, duration);
    return {
      async consume(key) {
        try {
          await rl.consume(key);
        } catch (rejection) {
          if (!(rejection instanceof RateLimiterRes)) throw rejection;
          const seconds = Math.max(1, Math.ceil(rejection.msBeforeNext / 1000));
          throw new RateLimitError(message(seconds), seconds);
        }
      },
      async reset(key) {
        await rl.delete(key);
      },
      async refund(key) {
        await rl.reward(key, 1);
      },
    };
  }

  const { rateLimits } = config;
  const inMinutes = (text: (minutes: number) => string) => (seconds: number) => text(Math.ceil(seconds / 60));
  return {
    loginPerUsername: await limit('login_user', rateLimits.loginPerUsername, fifteenMinutes, inMinutes(authTexts.tooManyAttempts)),
    loginPerAddress: await limit('login_addr', rateLimits.loginPerAddress, fifteenMinutes, inMinutes(authTexts.tooManyAttempts)),
    register: await limit('register', rateLimits.registerPerHour, 3600, inMinutes(limitTexts.tooManyRegistrations)),
    chat: await limit('chat', rateLimits.chatPerMinute, 60, coachTexts.rateLimited),
    calls: await limit('calls', phoneCallLimit.calls, phoneCallLimit.windowSeconds, phoneTexts.rateLimited),
    close: async () => {
      await pool?.end();
    },
  };
}
